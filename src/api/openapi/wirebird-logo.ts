/**
 * Wirebird's word mark for the reference page's top bar (/docs), in place of Swagger UI's own
 * logo: an SVG with no font or file of its own to fetch, so the page stays offline-whole.
 */
export const WIREBIRD_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="190" height="40" viewBox="0 0 190 40">
<path d="M6 26 L16 12 L22 20 L30 8 L34 26 Z" fill="#89bf04"/>
<text x="42" y="28" font-family="sans-serif" font-size="24" font-weight="700" fill="#ffffff">Wirebird</text>
</svg>`;
