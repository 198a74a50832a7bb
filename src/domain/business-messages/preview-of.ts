/** One line that stands for a business message in an inbox list. */
import type { BusinessContent } from './content.js';
import type { LocationContent } from './location-content.js';
import type { DocumentMedia } from './media.js';
import type { TemplateContent } from './template-content.js';

/** Long enough to recognise a message, short enough for one line of a list. */
export const PREVIEW_MAX = 100;

/** The text itself unless it is missing or blank. */
function textOr(text: string | undefined, fallback: string): string {
  return text !== undefined && text.trim() !== '' ? text : fallback;
}

function documentLabel(document: DocumentMedia): string {
  const parts = [document.filename, document.caption].filter((part) => textOr(part, '') !== '');
  return `📄 ${parts.length > 0 ? parts.join(' — ') : 'Document'}`;
}

function locationLabel(location: LocationContent): string {
  const place = textOr(location.name, textOr(location.address, 'Location'));
  return `📍 ${place} (${location.latitude}, ${location.longitude})`;
}

// Header and body variables are what the recipient reads; button variables (a URL suffix, a
// payload) would repeat or mean nothing in a list.
function templateLabel(template: TemplateContent): string {
  const texts = (template.components ?? [])
    .filter((component) => component.type !== 'button')
    .flatMap((component) => component.parameters ?? [])
    .flatMap((parameter) => (parameter.type === 'text' ? [parameter.text] : []));
  return `📋 ${template.name}${texts.length > 0 ? `: ${texts.join(', ')}` : ''}`;
}

function describe(content: BusinessContent): string {
  switch (content.type) {
    case 'text':
      return content.text.body;
    case 'image':
      return `📷 ${textOr(content.image.caption, 'Photo')}`;
    case 'video':
      return `🎥 ${textOr(content.video.caption, 'Video')}`;
    case 'audio':
      return '🎵 Audio';
    case 'sticker':
      return '💟 Sticker';
    case 'document':
      return documentLabel(content.document);
    case 'location':
      return locationLabel(content.location);
    case 'template':
      return templateLabel(content.template);
  }
}

/** A short human-readable preview of a message (for an inbox list): the body, the caption, "📍 name (lat, lon)", the template name with its text params, etc. */
export function previewOf(content: BusinessContent): string {
  // A list row is one line: newlines and runs of spaces in a body or caption become one space.
  const line = describe(content).replace(/\s+/gu, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= PREVIEW_MAX) return line;
  return `${chars.slice(0, PREVIEW_MAX - 1).join('')}…`;
}
