/**
 * HTML built only through `html`: every interpolated value is escaped unless it is already Html
 * (made by `html` itself), so a message body can never become markup. Nothing else in the
 * console concatenates strings into HTML.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  // The pattern matches only the characters ESCAPES has.
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

type Part = Html | string | number | undefined | null | false | readonly Part[];

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => (out += render(v) + (strings[i + 1] ?? '')));
  return new Html(out);
}

/** Joins fragments (already safe) into one. */
export function join(parts: readonly Html[], separator = ''): Html {
  return new Html(parts.map((p) => p.text).join(separator));
}
