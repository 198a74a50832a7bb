import { Readable } from 'node:stream';
import { jsonText } from '../util/unknown-values.js';

/**
 * A field of an answer whose elements are read only as the answer is written: an answer of
 * 100,000 receipts never holds them all, nor their JSON text, at once.
 */
export class StreamedArray<T = unknown> {
  constructor(readonly items: () => AsyncIterable<T>) {}
}

/**
 * What to send for an answer: the answer itself (Fastify serialises it) or, when a field is a
 * StreamedArray, a stream of the same JSON text, each element serialised as it is read. A read
 * that fails midway ends the stream with an error: the client sees a cut answer, never a wrong one.
 */
export function answerPayload(answer: Record<string, unknown>): Record<string, unknown> | Readable {
  const streamed = Object.entries(answer).filter(([, v]) => v instanceof StreamedArray);
  if (streamed.length === 0) return answer;
  const plain = Object.fromEntries(
    Object.entries(answer).filter(([, v]) => !(v instanceof StreamedArray)),
  );
  // Filtered to the StreamedArray entries where `streamed` is made, above.
  return Readable.from(jsonChunks(plain, streamed as [string, StreamedArray][]), {
    objectMode: false,
  });
}

async function* jsonChunks(
  plain: Record<string, unknown>,
  streamed: readonly [string, StreamedArray][],
): AsyncGenerator<string> {
  // The plain fields first, then each streamed one: "{...plain, "Key":[ elements ]}".
  let pending = JSON.stringify(plain).slice(0, -1);
  let fields = Object.keys(plain).length;
  for (const [key, array] of streamed) {
    yield `${pending}${fields++ > 0 ? ',' : ''}${JSON.stringify(key)}:[`;
    let first = true;
    for await (const item of array.items()) {
      // As JSON.stringify writes an array: what has no JSON form (undefined, a function) is null.
      const text = jsonText(item) ?? 'null';
      yield first ? text : `,${text}`;
      first = false;
    }
    pending = ']';
  }
  yield `${pending}}`;
}
