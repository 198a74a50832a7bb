import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request as httpRequest } from 'node:http';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { parseExposition, valueOf } from './helpers/prometheus.js';
import { keyPair, signedForm } from './helpers/ucloud.js';

/** A client whose connections come from `address` (any 127.0.0.0/8 address is this machine). */
function from(address: string): Agent {
  return new Agent({ keepAlive: true, maxSockets: 32, localAddress: address });
}

type Reply = { status: number; text: string; retryAfter: string | undefined };

function send(
  url: string,
  agent: Agent,
  o: { headers: Record<string, string>; body: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: o.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, text, retryAfter });
      });
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

async function post(
  gw: TestGateway,
  agent: Agent,
  o: { path?: string; key: string; body?: object },
): Promise<{ status: number; json: Record<string, unknown>; retryAfter: string | undefined }> {
  const r = await send(`${gw.url}${o.path ?? '/api'}`, agent, {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${o.key}` },
    body: JSON.stringify(o.body ?? { Action: 'ListApiKeys', AccountId: 1 }),
  });
  return {
    status: r.status,
    json: JSON.parse(r.text) as Record<string, unknown>,
    retryAfter: r.retryAfter,
  };
}

const login = (gw: TestGateway, agent: Agent, key: string) =>
  send(`${gw.url}/console/login`, agent, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key }).toString(),
  });

describe('failed authentications are limited per source address', () => {
  let gw: TestGateway;
  const agents: Agent[] = [];
  const agent = (address: string) => {
    const a = from(address);
    agents.push(a);
    return a;
  };
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => {
    for (const a of agents) a.destroy();
    await gw.close();
  });

  it('throttles 10,000 wrong keys from one address while a right key from another works', async () => {
    const attacker = agent('127.0.0.5');
    const statuses = new Map<number, number>();
    let retryAfter: string | undefined;
    const PARALLEL = 32;
    for (let sent = 0; sent < 10_000; sent += PARALLEL) {
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          post(gw, attacker, { key: `wb_guess${sent + i}` }),
        ),
      );
      for (const a of answers) {
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status === 429) {
          assert.equal(a.json.RetCode, 153);
          assert.match(
            String(a.json.Message),
            /^too many failed authentications from 127\.0\.0\.5; try again in \d+ s$/,
          );
          retryAfter = a.retryAfter;
        }
      }
    }
    const refused = statuses.get(401) ?? 0;
    // 20 failures a minute are allowed; the 21st ends them, and requests already past the check
    // when it was reached fail too.
    assert.ok(refused >= 21 && refused <= 21 + PARALLEL, `401s: ${refused}`);
    // Every other request was answered 429 before any key was looked up.
    assert.deepEqual([...statuses.keys()].sort(), [401, 429]);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
    const honest = await post(gw, agent('127.0.0.2'), { key: gw.key });
    assert.equal(honest.json.RetCode, 0, String(honest.json.Message));
    // The blocked address is refused whatever it sends until its failures age out.
    assert.equal((await post(gw, attacker, { key: gw.key })).status, 429);
    const text = await (
      await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminKey}` } })
    ).text();
    const samples = parseExposition(text);
    assert.equal(valueOf(samples, 'wirebird_auth_lockouts_total', { face: 'api' }), 1);
    assert.equal(valueOf(samples, 'wirebird_auth_failures_total', { face: 'api' }), refused);
  });

  it('throttles wrong admin keys and console logins the same way, per address', async () => {
    const admin = agent('127.0.0.3');
    const answers = [];
    for (let i = 0; i < 25; i++) {
      answers.push(await post(gw, admin, { path: '/admin/accounts/1/keys', key: `wba_guess${i}` }));
    }
    assert.deepEqual(
      answers.slice(0, 21).map((a) => a.status),
      Array(21).fill(401),
    );
    assert.deepEqual(
      answers.slice(21).map((a) => a.json.RetCode),
      Array(4).fill(153),
    );
    const browser = agent('127.0.0.4');
    for (let i = 0; i < 21; i++)
      assert.equal((await login(gw, browser, `wb_guess${i}`)).status, 401);
    assert.equal((await login(gw, browser, gw.adminKey)).status, 429);
    assert.equal((await login(gw, agent('127.0.0.6'), gw.adminKey)).status, 303);
  });

  it("counts the UCloud dialect's bad signatures, which it answers with HTTP 200", async () => {
    const pair = await keyPair(gw);
    const signer = agent('127.0.0.7');
    const forged = signedForm({ Action: 'QueryUSMSTemplate', TemplateId: 'UTA1' }, pair, (p) => {
      p.Signature = '0'.repeat(40);
    });
    const postForged = () =>
      send(`${gw.url}/api`, signer, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(forged).toString(),
      });
    for (let i = 0; i < 21; i++) {
      const r = await postForged();
      assert.deepEqual([r.status, (JSON.parse(r.text) as { RetCode: number }).RetCode], [200, 172]);
    }
    const blocked = await postForged();
    assert.deepEqual(
      [blocked.status, (JSON.parse(blocked.text) as { RetCode: number }).RetCode],
      [429, 153],
    );
  });
});
