import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { encodePdu, type Pdu } from './codec.js';
import { OUTPUT_HIGH_WATER, OUTPUT_LIMIT, PduSocket } from './pdu-socket.js';

/** Two ends of one TCP connection on 127.0.0.1, each read and written with PduSocket. */
async function pair(): Promise<{ client: PduSocket; server: PduSocket; close: () => void }> {
  const listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as { port: number };
  const accepted = once(listener, 'connection') as Promise<[Socket]>;
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const [serverSocket] = await accepted;
  const client = new PduSocket(socket);
  const server = new PduSocket(serverSocket);
  return {
    client,
    server,
    close: () => {
      client.destroy();
      server.destroy();
      listener.close();
    },
  };
}

describe('PduSocket', () => {
  let ends: Awaited<ReturnType<typeof pair>>;
  before(async () => (ends = await pair()));
  after(() => ends.close());

  it('cuts PDUs from chunks split anywhere and joined in any way', () => {
    const wire = Buffer.concat(
      [1, 2, 3].map((n) =>
        encodePdu({
          command: 'submit_sm',
          sequence_number: n,
          short_message: Buffer.alloc(n * 40),
        }),
      ),
    );
    for (const cut of [1, 3, 4, 17, 50, wire.length - 1]) {
      const seen: number[] = [];
      const onRequest = (p: Pdu) => seen.push(p.sequence_number);
      ends.server.on('request', onRequest);
      for (let at = 0; at < wire.length; at += cut) {
        ends.server.socket.emit('data', wire.subarray(at, at + cut));
      }
      ends.server.off('request', onRequest);
      assert.deepEqual(seen, [1, 2, 3], `chunks of ${cut} octets`);
    }
  });

  it('answers requests through their callbacks, a window of them in one write', async () => {
    ends.server.on('request', (p) =>
      ends.server.respond(p, 0, { message_id: `m${p.sequence_number}` }),
    );
    const socket = ends.client.socket;
    const write = socket.write.bind(socket);
    let writes = 0;
    socket.write = ((...args: Parameters<typeof write>) => {
      writes++;
      return write(...args);
    }) as typeof socket.write;
    const answers = await Promise.all(
      Array.from(
        { length: 100 },
        () =>
          new Promise<Pdu>((resolve) =>
            ends.client.request('submit_sm', { short_message: 'x' }, resolve),
          ),
      ),
    );
    socket.write = write;
    assert.equal(writes, 1);
    assert.deepEqual(
      answers.map((a) => [a.command, a.message_id]),
      answers.map((a) => ['submit_sm_resp', `m${a.sequence_number}`]),
    );
    ends.server.removeAllListeners('request');
  });

  it('reports a bad command_length once and reads nothing after it', async () => {
    const { client, server, close } = await pair();
    const seen: string[] = [];
    server.on('request', (p) => seen.push(p.command));
    server.on('malformed', (e) => seen.push(`malformed: ${e.message}`));
    client.socket.write(
      Buffer.concat([
        encodePdu({ command: 'enquire_link', sequence_number: 1 }),
        Buffer.from('0000000800000015', 'hex'),
        encodePdu({ command: 'enquire_link', sequence_number: 2 }),
      ]),
    );
    await once(server, 'malformed');
    close();
    assert.deepEqual(seen, [
      'enquire_link',
      'malformed: PDU length 8 is out of bounds (16 – 66048)',
    ]);
  });

  it('stops reading from a peer that does not read, and answers it all once it does', async () => {
    const { client, server, close } = await pair();
    server.on('request', (p) => server.respond(p));
    client.socket.pause();
    // 16 MB each way: more than the kernel's buffers on loopback hold.
    const links = 1_000_000;
    const link = encodePdu({ command: 'enquire_link', sequence_number: 1 });
    const held = once(server, 'backpressure');
    client.socket.write(Buffer.concat(Array.from({ length: links }, () => link)));
    assert.deepEqual(await held, [true]);
    assert.ok(server.socket.isPaused(), 'nothing more is read');
    const waiting = server.socket.writableLength;
    // One chunk read before the pause is answered in full: 64 KiB at most on loopback.
    assert.ok(waiting <= OUTPUT_HIGH_WATER + 64 * 1024, `${waiting} octets waiting`);
    let answered = 0;
    const all = new Promise<void>((resolve) =>
      client.on('response', () => {
        if (++answered === links) resolve();
      }),
    );
    const released = once(server, 'backpressure');
    client.socket.resume();
    assert.deepEqual(await released, [false]);
    await all;
    close();
  });

  it('drops a peer that takes nothing while requests of its own pile up', async () => {
    const { client, server, close } = await pair();
    client.socket.pause();
    let error: Error | undefined;
    server.on('error', (e) => (error = e));
    const closed = new Promise((resolve) => server.on('close', () => resolve(undefined)));
    // Bounded: 20 turns of 1.6 MB of enquire_link pass OUTPUT_LIMIT whatever the kernel holds.
    for (let turn = 0; turn < 20 && !error; turn++) {
      for (let i = 0; i < 100_000; i++) server.request('enquire_link');
      await new Promise((r) => setImmediate(r));
    }
    assert.match(error?.message ?? 'not dropped', /the peer does not read/);
    await closed;
    assert.ok(server.socket.destroyed);
    assert.ok(OUTPUT_LIMIT > OUTPUT_HIGH_WATER);
    close();
  });
});
