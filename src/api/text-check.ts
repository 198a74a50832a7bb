import { WirebirdError, invalid } from '../domain/errors.js';
import { fieldPath } from '../http/validate.js';

/**
 * Text both stores keep alike: PostgreSQL refuses NUL in text and SQLite keeps it, and a lone
 * surrogate cannot be written as UTF-8 at all. Such text is refused at the edge, naming the field,
 * before any Action reads it. Walks with a stack of its own, as bodies may nest deep.
 */
export function checkText(body: unknown): void {
  const pending: [unknown, string][] = [[body, '']];
  while (pending.length > 0) {
    // The loop runs while the stack is not empty.
    const [value, path] = pending.pop() as [unknown, string];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw invalid(fieldPath(path) || 'request', problem);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([item, `${path}/${i}`]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const keyProblem = textProblem(k);
        if (keyProblem)
          throw invalid(`a field name in ${fieldPath(path) || 'the body'}`, keyProblem);
        pending.push([v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
      }
    }
  }
}

// A high surrogate not followed by a low one, or a low one not after a high one. (String's own
// isWellFormed is ES2024, beyond the ES2023 library this build targets for Node 20.)
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(s: string): string | undefined {
  if (s.includes('\0')) return 'contains a NUL character (U+0000); remove it';
  if (LONE_SURROGATE.test(s)) {
    return 'contains a lone surrogate (half of a UTF-16 pair, such as \\ud800); send valid Unicode';
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text, refusing bytes that are not UTF-8 rather than replacing them with U+FFFD. */
export function utf8Text(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new WirebirdError(
      'MalformedRequest',
      'the request body is not valid UTF-8; send the JSON encoded as UTF-8',
    );
  }
}
