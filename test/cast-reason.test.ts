/**
 * The lint rule that makes every cast in src/ say why it is safe (tools/eslint/cast-reason.js),
 * run through ESLint's own RuleTester with the TypeScript parser the project lints with.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';

const RULE = join(process.cwd(), 'tools/eslint/cast-reason.js');

// RuleTester reports through describe/it; node:test provides both.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const reason = [{ messageId: 'reason' }];

describe('cast-reason', async () => {
  const { castReason } = (await import(pathToFileURL(RULE).href)) as {
    castReason: Rule.RuleModule;
  };
  tester.run('cast-reason', castReason, {
    valid: [
      'const k = ["a", "b"] as const;',
      '// Validated by the schema above.\nconst n = input as number;',
      'const n = input as number; // validated by the schema above',
      'function f() {\n  // A row of the SELECT above.\n  return row as Row;\n}',
      'call(\n  // the codec wrote it\n  x as Buffer,\n);',
      '// Multi-line statements: the comment above the statement covers a cast inside it.\nconst v = f(\n  a,\n  b as B,\n);',
    ],
    invalid: [
      { code: 'const n = input as number;', errors: reason },
      { code: 'const n = <number>input;', errors: reason },
      { code: '// about a\nconst a = 1;\nconst b = x as B;', errors: reason },
      { code: 'const o = {\n  // why a\n  a: x as A,\n  b: y as B,\n};', errors: reason },
      { code: 'const u = x as unknown as T;', errors: [...reason, ...reason] },
    ],
  });
});
