import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayWithRawSmsc, sendText, type RawEnv } from '../helpers/smpp.js';
import { approvedTemplate, cn, registerSenderId } from '../helpers/sending.js';
import { eventually } from '../helpers/gateway.js';

const SAR_REF = 0x020c;
const SAR_TOTAL = 0x020e;
const SAR_SEQ = 0x020f;
const MESSAGE_PAYLOAD = 0x0424;

/** A gateway on the raw SMSC with these SMSC settings, and an approved "T {1}" template. */
function withSmsc(settings: Record<string, unknown>) {
  const ctx = { env: undefined as unknown as RawEnv, tpl: '' };
  before(async () => {
    ctx.env = await gatewayWithRawSmsc(settings);
    ctx.tpl = await approvedTemplate(ctx.env.gw, 'T {1}');
    for (const id of ['Acme', '10690', '+447700900123']) await registerSenderId(ctx.env.gw, id);
  });
  after(() => ctx.env.close());
  return ctx;
}

describe('SMPP on the wire: SMSC settings (against an independent SMSC)', () => {
  describe('split: sar', () => {
    const ctx = withSmsc({ split: 'sar' });
    it('sends the parts without UDH, numbered in the sar_* TLVs', async () => {
      const parts = await sendText(ctx.env, ctx.tpl, 'y'.repeat(200), cn(201));
      assert.equal(parts.length, 2);
      for (const [i, p] of parts.entries()) {
        assert.equal(p.esmClass, 0);
        assert.equal(p.tlvs.get(SAR_TOTAL)?.[0], 2);
        assert.equal(p.tlvs.get(SAR_SEQ)?.[0], i + 1);
        assert.equal(p.tlvs.get(SAR_REF)?.length, 2, 'a 16-bit reference');
      }
      assert.deepEqual(parts[0]?.tlvs.get(SAR_REF), parts[1]?.tlvs.get(SAR_REF));
      assert.deepEqual(
        parts.map((p) => p.shortMessage.length),
        [153, 49],
      );
    });
  });

  describe('ValidityPeriod', () => {
    const ctx = withSmsc({});
    it('tells the SMSC what is left of it, as a relative validity_period; none without one', async () => {
      const body = {
        Action: 'SendBatchUSMSMessage',
        AccountId: 1,
        ValidityPeriod: 600,
        TaskContent: [{ TemplateId: ctx.tpl, Target: [{ Phone: cn(204), TemplateParams: ['v'] }] }],
      };
      assert.equal((await ctx.env.gw.api(body)).json.RetCode, 0);
      const [p] = await eventually(async () => {
        const mine = ctx.env.raw.submits.filter((s) => s.destAddr === cn(204).slice(1));
        return mine.length > 0 ? mine : undefined;
      }, 'the submit_sm');
      // Ten minutes, less the moment between acceptance and the submit: 00:09:5x or 00:10:00.
      assert.match(p?.validityPeriod ?? '', /^0000000(0095\d|01000)000R$/);
      const [plain] = await sendText(ctx.env, ctx.tpl, 'w', cn(205));
      assert.equal(plain?.validityPeriod, '');
    });
  });

  describe('split: payload', () => {
    const ctx = withSmsc({ split: 'payload' });
    it('sends long text whole in message_payload with an empty short_message', async () => {
      const [p, ...rest] = await sendText(ctx.env, ctx.tpl, 'z'.repeat(400), cn(202));
      assert.equal(rest.length, 0);
      assert.equal(p?.shortMessage.length, 0);
      assert.equal(p.tlvs.get(MESSAGE_PAYLOAD)?.toString('latin1'), 'T ' + 'z'.repeat(400));
    });
  });

  describe('encoding: latin1', () => {
    const ctx = withSmsc({ encoding: 'latin1' });
    it('sends GSM text as Latin-1 with data_coding 3', async () => {
      const [p] = await sendText(ctx.env, ctx.tpl, 'Größe @ 5£', cn(203));
      assert.equal(p?.dataCoding, 3);
      assert.equal(
        p.shortMessage.toString('hex'),
        Buffer.from('T Größe @ 5£', 'latin1').toString('hex'),
      );
    });
    it('keeps the GSM alphabet for text Latin-1 cannot hold (€)', async () => {
      const [p] = await sendText(ctx.env, ctx.tpl, '5€', cn(204));
      assert.equal(p?.dataCoding, 0);
      assert.equal(p.shortMessage.toString('hex'), '5420351b65');
    });
  });

  describe('addresses', () => {
    const ctx = withSmsc({});
    const cases = [
      ['an alphanumeric SenderId as TON 5 / NPI 0', 'Acme', '', [5, 0, 'Acme']],
      ['a short code as TON 3, with ExtendCode appended', '10690', '77', [3, 0, '1069077']],
      ['an E.164 sender as TON 1 / NPI 1 without +', '+447700900123', '5', [1, 1, '4477009001235']],
    ] as const;
    let n = 210;
    for (const [what, senderId, extendCode, expected] of cases) {
      it(`sends ${what}`, async () => {
        const phone = cn(n++);
        const [p] = await sendText(ctx.env, ctx.tpl, 'hi', phone, {
          SenderId: senderId,
          ExtendCode: extendCode,
        });
        assert.deepEqual([p?.sourceTon, p?.sourceNpi, p?.sourceAddr], expected);
        assert.deepEqual([p?.destTon, p?.destNpi, p?.destAddr], [1, 1, phone.slice(1)]);
      });
    }
  });
});
