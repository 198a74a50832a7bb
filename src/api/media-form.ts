/**
 * Reads POST /media's multipart form: one `file` part, and optionally `type` (the MIME type, as
 * Graph's own /media takes it) and `messaging_product` (sent by clients written for Graph).
 */
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WirebirdError, invalid, missing } from '../domain/errors.js';
import { FILENAME_MAX } from '../domain/business-messages/media.js';
import { MEDIA_MAX_BYTES, normaliseMimeType } from '../domain/media/media-kinds.js';
import { fileTooLarge, readLimitOf } from '../domain/media/upload-rules.js';
import { fieldsOf } from '../util/unknown-values.js';

export interface MediaForm {
  bytes: Buffer;
  fileName: string;
  mimeType: string;
  mimeField: 'type' | 'file';
}

/** The form's parts, as docs/openapi.json publishes them; no other part is taken. */
export const MEDIA_FORM = Type.Object({
  file: Type.String({ format: 'binary', description: 'the file, with a filename' }),
  type: Type.Optional(
    Type.String({
      description: "the MIME type, as Graph's /media takes it (else the file part's)",
    }),
  ),
  messaging_product: Type.Optional(
    Type.String({ description: 'accepted for clients written for Graph; not read' }),
  ),
});

const FIELDS = Object.keys(MEDIA_FORM.properties);
const TAKES = 'POST /media takes file, type and messaging_product';

/**
 * Busboy's own limits: past them it stops reading parts, which reads as one of the errors below.
 * A few more parts than the form has let a stray field be named in the refusal.
 */
export const FORM_LIMITS = {
  fileSize: MEDIA_MAX_BYTES,
  files: 1,
  fields: 9,
  parts: 10,
  fieldSize: 1024,
};

interface Collected {
  file?: { bytes: Buffer; fileName: string; mimeType: string };
  type?: string;
  /** The first thing wrong; the rest of the form is still read so the client hears the answer. */
  problem?: WirebirdError;
}

/**
 * Keeps at most `limit` bytes but reads the part to its end: a client that is still sending when
 * the answer goes out may never see it.
 */
async function readFile(part: MultipartFile, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file) {
    // A file part's stream yields Buffers (no encoding is set on it).
    size += (chunk as Buffer).length;
    // (the same stream: Buffers)
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit || part.file.truncated ? undefined : Buffer.concat(chunks);
}

/** Reads a part nobody wants to its end, so busboy moves on to the next. */
async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file);
}

// Until a `type` field has come (curl sends fields in the order given, Meta's examples put the
// file first), the file may be of any kind, so it is read up to the largest limit of all.
async function takeFile(part: MultipartFile, form: Collected): Promise<WirebirdError | undefined> {
  const bytes = await readFile(part, readLimitOf(form.type));
  if (!bytes) return fileTooLarge(form.type);
  if (Array.from(part.filename).length > FILENAME_MAX) {
    return invalid('file', `has a file name longer than ${FILENAME_MAX} characters`);
  }
  const mimeType = normaliseMimeType(part.mimetype);
  form.file = { bytes, fileName: part.filename || 'file', mimeType };
  return undefined;
}

function takeField(name: string, value: unknown, form: Collected): WirebirdError | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  if (name === 'file') return invalid('file', 'must be a file part (one with a filename)');
  if (name === 'messaging_product') {
    return text === 'whatsapp' ? undefined : invalid('messaging_product', 'must be whatsapp');
  }
  if (form.type !== undefined) return invalid('type', 'must be sent once');
  if (text === '') return invalid('type', 'must not be blank');
  form.type = normaliseMimeType(text);
  return undefined;
}

async function takePart(part: Multipart, form: Collected): Promise<WirebirdError | undefined> {
  if (!FIELDS.includes(part.fieldname)) {
    if (part.type === 'file') await drain(part);
    return invalid(JSON.stringify(part.fieldname.slice(0, 64)), `is not allowed; ${TAKES}`);
  }
  if (part.type === 'file' && part.fieldname === 'file') return takeFile(part, form);
  if (part.type === 'file') {
    await drain(part);
    return invalid(part.fieldname, 'must be a plain field, not a file');
  }
  return takeField(part.fieldname, part.value, form);
}

const TOO_MANY = `the form has too many parts; ${TAKES}`;
const MALFORMED = 'the multipart/form-data body is malformed';

/** What the request is told for each of @fastify/multipart's errors (their codes). */
const MULTIPART_ERRORS: Record<string, string> = {
  FST_FIELDS_LIMIT: TOO_MANY,
  FST_PARTS_LIMIT: TOO_MANY,
  FST_PROTO_VIOLATION: `the form has a field name it may not have; ${TAKES}`,
  FST_INVALID_JSON_FIELD_ERROR: 'a field of the form says it is JSON but is not',
  FST_MP_PREMATURE_CLOSE: 'the request ended before the multipart/form-data body did',
};

export const NOT_MULTIPART = 'Content-Type must be multipart/form-data';

/** Multipart's and busboy's errors in the envelope's terms; anything else is a fault of ours. */
export function fromMultipartError(err: unknown): unknown {
  const code = fieldsOf(err).code;
  if (code === 'FST_FILES_LIMIT') return invalid('file', 'must be sent once');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new WirebirdError('MalformedRequest', NOT_MULTIPART);
  }
  const known = typeof code === 'string' ? MULTIPART_ERRORS[code] : undefined;
  if (known) return new WirebirdError('MalformedRequest', known);
  // Busboy's own parse errors carry no code: "Unexpected end of form", "Boundary not found"...
  const message = err instanceof Error ? err.message : '';
  if (/multipart|boundary|unexpected end/i.test(message)) {
    return new WirebirdError('MalformedRequest', MALFORMED);
  }
  return err;
}

/** The upload, or a WirebirdError naming the field at fault. */
export async function readMediaForm(request: FastifyRequest): Promise<MediaForm> {
  if (!request.isMultipart()) {
    throw new WirebirdError('MalformedRequest', NOT_MULTIPART);
  }
  const form: Collected = {};
  try {
    for await (const part of request.parts({ limits: FORM_LIMITS })) {
      const problem = await takePart(part, form);
      form.problem ??= problem;
    }
  } catch (err) {
    throw form.problem ?? fromMultipartError(err);
  }
  if (form.problem) throw form.problem;
  if (!form.file) throw missing('file');
  const { bytes, fileName } = form.file;
  if (form.type !== undefined) return { bytes, fileName, mimeType: form.type, mimeField: 'type' };
  return { bytes, fileName, mimeType: form.file.mimeType, mimeField: 'file' };
}
