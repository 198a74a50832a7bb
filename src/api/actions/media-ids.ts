/**
 * SendMessage's check of the Wirebird media ids in a content object: each must name a file this
 * account uploaded, of the kind its field wants. Ids of another form are WhatsApp's own (the
 * client uploaded to Meta itself) and pass as they are.
 */
import type { BusinessContent } from '../../domain/business-messages/content.js';
import { mediaIdsOf, withDocumentFilenames } from '../../domain/business-messages/media-refs.js';
import type { MediaIdRef } from '../../domain/business-messages/media-refs.js';
import { invalid } from '../../domain/errors.js';
import { isWirebirdMediaId, type MediaInfo } from '../../domain/media/media-file.js';
import { MEDIA_KINDS, kindOfMimeType } from '../../domain/media/media-kinds.js';
import type { MediaStore } from '../../domain/ports.js';

async function uploaded(store: MediaStore, accountId: number, ref: MediaIdRef): Promise<MediaInfo> {
  const info = await store.getMediaInfo(accountId, ref.id);
  if (!info) {
    const shown = JSON.stringify(ref.id.slice(0, 64));
    throw invalid(ref.path, `${shown} is not a media id this account uploaded (POST /media)`);
  }
  if (kindOfMimeType(info.mimeType) !== ref.kind) {
    const takes = MEDIA_KINDS[ref.kind].mimeTypes.join(', ');
    throw invalid(ref.path, `names a ${info.mimeType} file, but ${ref.kind} takes ${takes}`);
  }
  return info;
}

/**
 * The content once its Wirebird media ids are checked, documents without a filename given the
 * uploaded file's name; throws WirebirdError naming the field (`base` as in parseBusinessContentAt).
 */
export async function checkMediaIds(
  store: MediaStore,
  accountId: number,
  content: BusinessContent,
  base: string,
): Promise<BusinessContent> {
  const names = new Map<string, string>();
  for (const ref of mediaIdsOf(content, base)) {
    if (!isWirebirdMediaId(ref.id)) continue;
    names.set(ref.id, (await uploaded(store, accountId, ref)).fileName);
  }
  return names.size === 0 ? content : withDocumentFilenames(content, (id) => names.get(id));
}
