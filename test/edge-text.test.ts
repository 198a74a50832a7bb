import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, storedMessages } from './helpers/sending.js';

/** A seeded generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** Strings built from the characters stores disagree on, and the ones they share. */
const PIECES = [
  'a',
  ' ',
  'é',
  '中',
  '😀',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u001f',
  '\u200b',
  '\ufeff',
  '\\',
  '"',
  '{1}',
];

function fuzzText(next: () => number): string {
  return Array.from(
    { length: 1 + Math.floor(next() * 6) },
    () => PIECES[Math.floor(next() * PIECES.length)],
  ).join('');
}

// An oracle apart from the code's own: a lone surrogate does not survive a round trip through UTF-8.
const unsafe = (s: string) => s.includes('\u0000') || Buffer.from(s, 'utf8').toString('utf8') !== s;

/**
 * Text that cannot be stored alike on SQLite and PostgreSQL is refused at the edge; everything
 * else is stored and read back as sent. Runs on both stores (WIREBIRD_TEST_STORE=postgres).
 */
describe('text the stores cannot keep alike is refused at the edge', () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ ...THREADED, maxSegments: 3 });
    tpl = await approvedTemplate(gw, 'Code {1}');
  });
  after(() => gw.close());

  it('refuses NUL and lone surrogates in TemplateParams, TemplateName and SessionNo, naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [
        {
          Action: 'SendBatchUSMSMessage',
          AccountId: 1,
          TaskContent: [
            { TemplateId: tpl, Target: [{ Phone: cn(1), TemplateParams: ['a\u0000b'] }] },
          ],
        },
        /^TaskContent\[0\]\.Target\[0\]\.TemplateParams\[0\] contains a NUL/,
      ],
      [
        {
          Action: 'CreateUSMSTemplate',
          AccountId: 1,
          Purpose: 2,
          TemplateName: 'x\ud800',
          Template: 'Hi {1}',
        },
        /^TemplateName contains a lone surrogate/,
      ],
      [
        { Action: 'GetUSMSSendReceipt', AccountId: 1, SessionNoSet: ['s\u0000'] },
        /^SessionNoSet\[0\] contains a NUL/,
      ],
    ];
    for (const [body, message] of cases) {
      const { status, json } = await gw.api(body);
      assert.equal(status, 200);
      assert.equal(json.RetCode, RetCode.InvalidParameter, json.Message);
      assert.match(json.Message, message);
    }
    assert.equal(await storedMessages(gw), 0);
  });

  it('refuses a body that is not UTF-8 instead of storing U+FFFD', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`{"Action":"CreateUSMSTemplate","AccountId":1,"Purpose":2,"TemplateName":"`),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`","Template":"Hi {1}"}`),
    ]);
    const res = await fetch(`${gw.url}/api`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: bytes,
    });
    const json = (await res.json()) as { RetCode: number; Message: string };
    assert.equal(res.status, 400);
    assert.equal(json.RetCode, RetCode.MalformedRequest);
    assert.match(json.Message, /not valid UTF-8/);
  });

  it('fuzz: 200 random params are refused when unsafe, else stored and read back as sent', async () => {
    const next = random(20261125);
    const params = Array.from({ length: 200 }, () => fuzzText(next));
    for (const [i, p] of params.entries()) {
      const body = {
        Action: 'SendBatchUSMSMessage',
        AccountId: 1,
        TaskContent: [{ TemplateId: tpl, Target: [{ Phone: cn(100 + i), TemplateParams: [p] }] }],
      };
      const { status, json } = await gw.api(body);
      assert.equal(status, 200, `case ${i} ${JSON.stringify(p)}`);
      if (unsafe(p)) {
        assert.equal(
          json.RetCode,
          RetCode.InvalidParameter,
          `case ${i} ${JSON.stringify(p)}: ${json.Message}`,
        );
        continue;
      }
      assert.equal(json.RetCode, 0, `case ${i} ${JSON.stringify(p)}: ${json.Message}`);
      const view = await gw.store.sessionView(json.SessionNo as string, 1, 1);
      assert.equal(view?.messages[0]?.text, `Code ${p}`, `case ${i} read back`);
    }
  });

  it(`refuses a message rendered past maxSegments for its number only (RetCode ${RetCode.MessageTooLong} in FailureDetails)`, async () => {
    const body = {
      Action: 'SendBatchUSMSMessage',
      AccountId: 1,
      TaskContent: [
        {
          TemplateId: tpl,
          Target: [
            { Phone: cn(900), TemplateParams: ['x'.repeat(900_000)] },
            { Phone: cn(901), TemplateParams: ['short'] },
          ],
        },
      ],
    };
    const { json } = await gw.api(body);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 1);
    const failed = (
      json.FailContent as { Target: { Phone: string; FailureDetails: string }[] }[]
    )[0]?.Target[0];
    assert.equal(failed?.Phone, cn(900));
    assert.match(
      failed.FailureDetails,
      /^message too long \(RetCode 18021\): the rendered text needs 5883 segments; at most 3/,
    );
  });
});
