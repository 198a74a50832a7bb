import type { FormData } from 'undici';
import { GraphFailure, graphFailure, retryAfterMs, transportFailure } from './graph-errors.js';

/**
 * undici, loaded with the first Graph call: a gateway without WhatsApp never holds its modules
 * (about 5 MB of an idle gateway's heap).
 */
export const undici = () => import('undici');

/** Where a Graph API call goes and who makes it; the token only ever travels in the header. */
export interface GraphCall {
  url: string;
  accessToken: string;
  timeoutMs: number;
}

/**
 * POSTs to the Graph API (a JSON body, or a multipart form for /media) and answers the parsed
 * success body; throws GraphFailure, classified, for everything else.
 */
export async function postGraph(call: GraphCall, body: FormData | object): Promise<unknown> {
  const { FormData: Form, request } = await undici();
  const form = body instanceof Form;
  const signal = AbortSignal.timeout(call.timeoutMs);
  let res;
  try {
    res = await request(call.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${call.accessToken}`,
        ...(form ? {} : { 'content-type': 'application/json' }),
      },
      body: form ? body : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    throw transportFailure(err, signal.aborted);
  }
  let answer: unknown;
  try {
    answer = await res.body.json();
  } catch (err) {
    // A success whose body was cut off may still have been sent: retried like no answer at all.
    if (res.statusCode < 300 || signal.aborted) throw transportFailure(err, signal.aborted);
    answer = undefined;
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return answer;
  throw graphFailure(res.statusCode, answer, retryAfterMs(res.headers['retry-after']));
}

/** The id field a success answer must carry (`messages[0].id` of /messages, `id` of /media). */
export function answeredId(id: unknown, what: string): string {
  if (typeof id === 'string' && id !== '') return id;
  throw new GraphFailure(true, 'NOID', `the Graph API answered ${what} without an id`);
}

/** The wamid of a /messages success answer: `messages[0].id`. */
export function wamidOf(answer: unknown): string {
  // Graph's /messages answer; each field read is checked below.
  const messages = (answer as { messages?: { id?: unknown }[] } | undefined)?.messages;
  return answeredId(messages?.[0]?.id, 'the message');
}

/** GETs a Graph API object (a media id's URL and facts); throws GraphFailure as postGraph does. */
export async function getGraph(call: GraphCall): Promise<unknown> {
  const { body, statusCode, headers } = await download(call, 64 * 1024);
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch (err) {
    if (statusCode < 300) throw transportFailure(err, false);
    answer = undefined;
  }
  if (statusCode >= 200 && statusCode < 300) return answer;
  throw graphFailure(statusCode, answer, retryAfterMs(headers['retry-after']));
}

/**
 * GETs a file Meta serves (the short-lived URL of a media id), with the bearer token as Meta
 * requires, reading at most `maxBytes`: a larger file fails for good, not by filling memory.
 */
export async function downloadGraph(
  call: GraphCall,
  maxBytes: number,
): Promise<{ bytes: Buffer; contentType: string | undefined }> {
  const { body, statusCode, headers } = await download(call, maxBytes);
  if (statusCode < 200 || statusCode >= 300) {
    let answer: unknown;
    try {
      answer = JSON.parse(body.toString('utf8'));
    } catch {
      answer = undefined;
    }
    throw graphFailure(statusCode, answer, retryAfterMs(headers['retry-after']));
  }
  const type = headers['content-type'];
  return { bytes: body, contentType: Array.isArray(type) ? type[0] : type };
}

async function download(call: GraphCall, maxBytes: number) {
  const { request } = await undici();
  const signal = AbortSignal.timeout(call.timeoutMs);
  try {
    const res = await request(call.url, {
      method: 'GET',
      headers: { authorization: `Bearer ${call.accessToken}` },
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    // undici's body is a web ReadableStream of Uint8Arrays, which Node yields as Buffers.
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new GraphFailure(false, 'TOO_LARGE', `the file is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return { body: Buffer.concat(chunks), statusCode: res.statusCode, headers: res.headers };
  } catch (err) {
    if (err instanceof GraphFailure) throw err;
    throw transportFailure(err, signal.aborted);
  }
}
