// A compact report for `npm test`: a dot per 100 passing tests, what tests print, every failure in full, skipped tests
// with their reason, and one closing line `<label>: N passed, N failed, N skipped`.
// node's runner loads it with --test-reporter; WIREBIRD_TEST_REPORTER=tap (or spec) is the raw one.
import { inspect } from 'node:util';

const label = process.env.WIREBIRD_TEST_LABEL || 'tests';

function where(data) {
  const file = data.file ? data.file.replace(process.cwd() + '/', '') : '';
  return file ? `${file} › ${data.name}` : data.name;
}

function failure(data) {
  const err = data.details?.error;
  const cause = err?.cause ?? err;
  const lines = [`✖ ${where(data)}`];
  if (cause instanceof Error) lines.push(cause.stack ?? cause.message);
  else lines.push(inspect(cause, { depth: 4 }));
  if (cause && typeof cause === 'object' && 'expected' in cause) {
    lines.push(`expected: ${inspect(cause.expected, { depth: 4 })}`);
    lines.push(`actual:   ${inspect(cause.actual, { depth: 4 })}`);
  }
  return lines.join('\n').replace(/^/gm, '  ') + '\n\n';
}

export default async function* compact(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let dots = 0;
  for await (const event of source) {
    const { type, data } = event;
    // Suites (describe) pass or fail through their tests: only tests are counted.
    const isSuite = data?.details?.type === 'suite';
    if (type === 'test:pass' && !isSuite) {
      if (data.skip !== undefined || data.todo !== undefined) {
        counts.skipped++;
        yield `\n- skipped: ${where(data)}${typeof data.skip === 'string' ? ` (${data.skip})` : ''}\n`;
      } else {
        counts.passed++;
        if (++dots % 100 === 0) yield '.';
      }
    } else if (type === 'test:fail' && !isSuite) {
      counts.failed++;
      yield `\n${failure(data)}`;
    } else if (
      type === 'test:fail' &&
      isSuite &&
      data.details?.error?.failureType !== 'subtestsFailed'
    ) {
      // A suite that failed by itself (its before hook threw): its tests never ran.
      counts.failed++;
      yield `\n${failure(data)}`;
    } else if (type === 'test:stderr' || type === 'test:stdout') {
      // What a test prints on purpose (a crash test's duplicate count, a skipped tool's reason).
      yield data.message;
    }
  }
  yield `\n${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
