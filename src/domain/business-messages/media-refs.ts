/**
 * The media ids a content object carries (a media message's own, a template header's), so they
 * can be checked against the account's uploads and swapped for the ids WhatsApp gave them.
 */
import type { BusinessContent } from './content.js';
import type { DocumentMedia, MediaKind, MediaRef } from './media.js';
import type { TemplateComponent } from './template-component.js';
import type { TemplateParameter } from './template-parameter.js';

export interface MediaIdRef {
  /** The kind of file the id must name: an image message wants an image. */
  kind: MediaKind;
  /** The field, as the client's Content spells it (e.g. Content.image.id). */
  path: string;
  id: string;
}

type Visit = (ref: MediaIdRef, media: MediaRef) => MediaRef;

function visitRef<M extends MediaRef>(media: M, kind: MediaKind, base: string, visit: Visit): M {
  if (media.id === undefined) return media;
  return { ...media, ...visit({ kind, path: `${base}.id`, id: media.id }, media) };
}

function visitParameter(p: TemplateParameter, base: string, visit: Visit): TemplateParameter {
  switch (p.type) {
    case 'image':
      return { ...p, image: visitRef(p.image, p.type, `${base}.image`, visit) };
    case 'video':
      return { ...p, video: visitRef(p.video, p.type, `${base}.video`, visit) };
    case 'document':
      return { ...p, document: visitRef(p.document, p.type, `${base}.document`, visit) };
    default:
      return p;
  }
}

function visitComponent(c: TemplateComponent, base: string, visit: Visit): TemplateComponent {
  if (c.parameters === undefined) return c;
  const parameters = c.parameters.map((p, j) =>
    visitParameter(p, `${base}.parameters[${j}]`, visit),
  );
  return { ...c, parameters };
}

/** A copy of the content in which `visit` saw, and may have replaced, every media object with an id. */
function visitContent(content: BusinessContent, base: string, visit: Visit): BusinessContent {
  switch (content.type) {
    case 'image':
      return { ...content, image: visitRef(content.image, content.type, base, visit) };
    case 'video':
      return { ...content, video: visitRef(content.video, content.type, base, visit) };
    case 'audio':
      return { ...content, audio: visitRef(content.audio, content.type, base, visit) };
    case 'document':
      return { ...content, document: visitRef(content.document, content.type, base, visit) };
    case 'sticker':
      return { ...content, sticker: visitRef(content.sticker, content.type, base, visit) };
    case 'template': {
      const { components } = content.template;
      if (components === undefined) return content;
      const visited = components.map((c, i) =>
        visitComponent(c, `${base}.components[${i}]`, visit),
      );
      return { ...content, template: { ...content.template, components: visited } };
    }
    default:
      return content;
  }
}

/** Every media id of the content, in order; `base` is where the content object sits. */
export function mediaIdsOf(content: BusinessContent, base = 'Content'): MediaIdRef[] {
  const found: MediaIdRef[] = [];
  visitContent(content, base, (ref, media) => {
    found.push(ref);
    return media;
  });
  return found;
}

/** A copy of the content with each media id replaced by `replace`'s answer; the input is untouched. */
export function withMediaIds(
  content: BusinessContent,
  replace: (ref: MediaIdRef) => string,
): BusinessContent {
  return visitContent(content, 'Content', (ref, media) => ({ ...media, id: replace(ref) }));
}

/**
 * A copy in which documents sent by id without a filename get `nameOf`'s: WhatsApp shows a
 * document's filename and picks its icon from the extension, and "Untitled" helps nobody.
 */
export function withDocumentFilenames(
  content: BusinessContent,
  nameOf: (id: string) => string | undefined,
): BusinessContent {
  return visitContent(content, 'Content', (ref, media) => {
    // Only document media carry a filename; on the others the field is absent and reads undefined.
    const named = media as DocumentMedia;
    if (ref.kind !== 'document' || named.filename !== undefined) return media;
    const filename = nameOf(ref.id);
    return filename === undefined ? media : { ...media, filename };
  });
}
