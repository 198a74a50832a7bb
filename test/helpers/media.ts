/** POST /media from the tests: a multipart form built with the platform's FormData. */
import type { Answer, TestGateway } from './gateway.js';

export interface UploadPart {
  bytes: Uint8Array;
  filename?: string;
  /** The file part's Content-Type; '' sends none of the file's own (FormData then says octet-stream). */
  contentType?: string;
}

export interface UploadOptions {
  /** The `type` field, when the test sends one. */
  type?: string;
  /** Extra fields, in order, after the file. */
  fields?: [string, string | Blob][];
  /** The dev key unless given; null sends none. */
  key?: string | null;
}

/** `size` bytes of one value: "A" by default, which reads as text, so any kind takes them. */
export function fileBytes(size: number, fill = 0x41): Uint8Array {
  return new Uint8Array(size).fill(fill);
}

export function mediaForm(part: UploadPart | undefined, options: UploadOptions = {}): FormData {
  const form = new FormData();
  if (part) {
    const blob = new Blob([part.bytes], { type: part.contentType ?? '' });
    form.append('file', blob, part.filename ?? 'upload.bin');
  }
  if (options.type !== undefined) form.append('type', options.type);
  for (const [name, value] of options.fields ?? []) form.append(name, value);
  return form;
}

export async function postMedia(
  gw: TestGateway,
  body: FormData | string | undefined,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const key = options.key === undefined ? gw.key : options.key;
  // Through the typed client's transport, raw: the tests send malformed forms too.
  const raw = await gw.client.request('POST', '/media', { body, key, headers: options.headers });
  return { status: raw.status, json: raw.answer as Answer['json'] };
}

export function uploadMedia(
  gw: TestGateway,
  part: UploadPart | undefined,
  options: UploadOptions = {},
): Promise<Answer> {
  return postMedia(gw, mediaForm(part, options), { key: options.key });
}

/** The MediaId of an upload that must succeed. */
export async function uploadedId(
  gw: TestGateway,
  contentType: string,
  filename = 'file.bin',
  key?: string,
): Promise<string> {
  const { status, json } = await uploadMedia(
    gw,
    { bytes: fileBytes(64), filename, contentType },
    { key },
  );
  if (status !== 200 || json.RetCode !== 0) throw new Error(`upload refused: ${json.Message}`);
  return json.MediaId as string;
}
