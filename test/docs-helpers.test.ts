/**
 * One set of shell helpers for every example (the README's First calls): docs/ pages use them and
 * define none of their own, and the helpers, run by bash against a gateway, answer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((n) => n.endsWith('.md'))
  .map((n) => ({ name: `docs/${n}`, text: readFileSync(join(ROOT, 'docs', n), 'utf8') }));

/** The README's helper lines: the first sh block of its First calls. */
function readmeHelpers(): string {
  const section = README.slice(README.indexOf('## First calls'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the README has a First calls sh block');
  return block;
}

describe('the shell helpers of the examples', () => {
  it('are defined once, in the README, and every page calls them one way', () => {
    const found: string[] = [];
    for (const { name, text } of DOCS) {
      if (/^\s*(api|admin)\(\)\s*\{/m.test(text)) found.push(`${name} defines a helper`);
      if (/^\s*api -d /m.test(text))
        found.push(`${name} calls api -d (the README's api takes the body)`);
      if (/Bearer \$WIREBIRD_ADMIN_KEY/.test(text)) found.push(`${name} uses $WIREBIRD_ADMIN_KEY`);
    }
    assert.deepEqual(found, []);
    assert.match(readmeHelpers(), /^api\(\) \{/m);
    assert.match(readmeHelpers(), /^admin\(\) \{/m);
  });

  describe('run by bash against a gateway', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({});
    });
    after(() => gw.close());

    it('answer an Action and an admin route', async () => {
      const helpers = readmeHelpers()
        .replaceAll('http://127.0.0.1:8080', gw.url)
        .replaceAll('data/', `${gw.dataDir}/`);
      // Asynchronously: the gateway answering curl runs in this very process.
      const run = async (line: string) => {
        const { stdout } = await promisify(execFile)('bash', ['-c', `${helpers}\n${line}`]);
        return JSON.parse(stdout) as Record<string, unknown>;
      };
      assert.equal((await run(`api '{"Action":"GetAccountPolicy","AccountId":1}'`)).RetCode, 0);
      const withHeader = await run(`api '{"Action":"GetAccountPolicy","AccountId":1}' -H 'X-A: b'`);
      assert.equal(withHeader.RetCode, 0);
      assert.equal((await run('admin accounts/1/policy')).AccountId, 1);
    });
  });
});
