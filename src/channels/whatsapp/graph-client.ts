import { FormData, request } from 'undici';
import { GraphFailure, graphFailure, retryAfterMs, transportFailure } from './graph-errors.js';

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
  const form = body instanceof FormData;
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
  const messages = (answer as { messages?: { id?: unknown }[] } | undefined)?.messages;
  return answeredId(messages?.[0]?.id, 'the message');
}
