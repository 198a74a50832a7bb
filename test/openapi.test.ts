import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { actions } from '../src/api/actions/index.js';
import { ADMIN_ROUTES } from '../src/api/admin/index.js';
import { openApiDocument } from '../src/api/openapi/document.js';
import { EVENT_TYPES, TEST_EVENT } from '../src/domain/events/event.js';
import { RetCode } from '../src/domain/errors.js';
import { staleFiles } from '../tools/openapi-files.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

const run = promisify(execFile);
type Doc = {
  paths: Record<string, Record<string, { operationId?: string }>>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
const doc = openApiDocument() as Doc;

describe('the OpenAPI document', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => gw.close());

  it('is served at /api/openapi.json as committed in docs/openapi.json, byte for byte', async () => {
    const res = await fetch(`${gw.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'openapi.json'));
    assert.equal(await res.text(), committed.toString('utf8'));
  });

  it('is committed as docs/openapi.json with the client generated from it, all current', async () => {
    const stale = await staleFiles();
    assert.deepEqual(stale, [], `stale: ${stale.join(', ')}; run npm run openapi and commit`);
  });

  it('is valid OpenAPI 3.1 to @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    // Checked as 3.1, the version the document says, not as an older one.
    assert.equal(validator.version, '3.1');
  });

  it('has every Action, admin route, RetCode and event type', () => {
    const schemas = doc.components.schemas;
    for (const name of actions.keys()) {
      assert.ok(schemas[`${name}Request`], `${name}Request`);
      assert.ok(schemas[`${name}Response`], `${name}Response`);
    }
    const operations = Object.values(doc.paths).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    for (const id of Object.keys(ADMIN_ROUTES)) assert.ok(operations.includes(id), id);
    const codes = (schemas.RetCode?.oneOf as { const: number }[]).map((c) => c.const);
    assert.deepEqual(codes.sort(), Object.values(RetCode).sort());
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES, TEST_EVENT].sort());
    // Only the Actions that honour Idempotency-Key are published as keyed.
    const keyed = [...actions.keys()].filter(
      (n) => schemas[`${n}Request`]?.['x-repeatable'] === 'keyed',
    );
    assert.deepEqual(keyed.sort(), ['SendBatchUSMSMessage', 'SendMessage', 'SendUSMSMessage']);
  });
});

describe('types generated from the document by openapi-typescript', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-openapi-ts-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
  const header = `import type { components } from './api.js';
type S = components['schemas'];
`;
  const good = `${header}
const request: S['SendBatchUSMSMessageRequest'] = {
  Action: 'SendBatchUSMSMessage',
  AccountId: 1,
  TaskContent: [{ TemplateId: 'UTA1', Target: [{ Phone: '+8613800000000', TemplateParams: ['1'] }] }],
};
declare const answer: S['SendBatchUSMSMessageResponse'];
const session: string = answer.SessionNo;
const failed: number = answer.FailContent.length;
const code: S['RetCode'] = 18046;
console.log(request, session, failed, code);
`;
  const bad = `${header}
const request: S['SendBatchUSMSMessageRequest'] = { Action: 'SendBatchUSMSMessage', AccountId: 1 };
const code: S['RetCode'] = 4242;
console.log(request, code);
`;
  /** tsc's complaints about each program, both checked in one run (a run costs seconds). */
  let verdicts: Promise<{ good: string[]; bad: string[] }> | undefined;
  const checked = async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(structuredClone(doc) as never)));
    writeFileSync(join(dir, 'good.ts'), good);
    writeFileSync(join(dir, 'bad.ts'), bad);
    const args = ['--strict', '--noEmit', '--target', 'ES2022', '--module', 'NodeNext'];
    args.push('--moduleResolution', 'NodeNext', '--pretty', 'false');
    const stdout = await run(process.execPath, [tsc, ...args, ...['good.ts', 'bad.ts']], {
      cwd: dir,
    }).then(
      () => '',
      (err: unknown) => (err as { stdout?: string }).stdout ?? String(err),
    );
    const lines = stdout.split('\n').filter((l) => l.trim() !== '');
    const of = (file: string) => lines.filter((l) => l.startsWith(file));
    // Every line names one of the two files: anything else (api.ts, a crash) fails both.
    const other = lines.filter((l) => !/^(good|bad)\.ts\(/.test(l) && !l.startsWith(' '));
    return { good: [...of('good.ts'), ...other], bad: [...of('bad.ts'), ...other] };
  };
  const verdict = () => (verdicts ??= checked());

  it('type-check a program that builds a batch and reads its answer', async () => {
    assert.deepEqual((await verdict()).good, []);
  });

  it('refuse a request without its required field and a RetCode that does not exist', async () => {
    const complaints = (await verdict()).bad.join('\n');
    assert.match(complaints, /TaskContent/);
    assert.match(complaints, /4242/);
  });
});
