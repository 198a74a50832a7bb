/**
 * The ceiling: a bare `smpp`-package client that only submits (with a window) and acknowledges
 * receipts, against the same SMSC simulator. No HTTP, no storage, no retries. Run as a child by
 * the Kannel bench: `node bare-client.js <port> <kind> <messages> <window> <limit s>`; it binds,
 * waits for SIGUSR2 (so the bench can start its CPU window first), sends, and acknowledges
 * receipts until it is stopped.
 */
import smpp, { type PDU } from 'smpp';
import { submitPdusFor, type SubmitFields } from '../../src/channels/smpp/submit-pdus.js';
import type { ClaimedMessage } from '../../src/domain/messages/message.js';
import { MESSAGE_KINDS, textFor, type Kind } from './messages.js';
import { PhoneSequence } from '../numbers.js';

const SETTINGS = { encoding: 'gsm', split: 'udh', defaultSender: 'WIREBIRD' } as const;

/** The PDUs of message `i`, built as Wirebird's SMPP channel builds them. */
function pdusOf(kind: Kind, id: number, phone: string): SubmitFields[] {
  const m = { id, e164: phone, senderId: '', extendCode: '', body: '' } as ClaimedMessage;
  m.body = textFor(MESSAGE_KINDS[kind], phone);
  return submitPdusFor(m, SETTINGS, Date.now());
}

function main(): void {
  const [port, kindArg, countArg, windowArg, limitArg] = process.argv.slice(2);
  const kind = kindArg as Kind;
  const count = Number(countArg);
  const window = Number(windowArg);
  const phones = new PhoneSequence('138').take(count);
  const parts = count * MESSAGE_KINDS[kind].parts;
  let next = 0;
  let inFlight = 0;
  let receipts = 0;
  let bound = false;
  let go = false;
  // Installed before the bind, so an early SIGUSR2 is kept rather than killing the process.
  process.on('SIGUSR2', () => {
    go = true;
    if (bound) pump();
  });
  setTimeout(() => process.exit(2), Number(limitArg) * 1000).unref();
  const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` });
  const pump = () => {
    while (inFlight < window && next < count) {
      const pdus = pdusOf(kind, next, phones[next] as string);
      next++;
      for (const fields of pdus) {
        inFlight++;
        session.send(new smpp.PDU('submit_sm', fields), (pdu: PDU) => {
          inFlight--;
          if (pdu.command_status !== 0) console.error(`submit_sm_resp ${pdu.command_status}`);
          pump();
        });
      }
    }
  };
  session.on('deliver_sm', (pdu: PDU) => {
    session.send(pdu.response());
    // Stays up once done: the bench reads its CPU from /proc before it stops it by pid.
    if (++receipts === parts) console.log(`all ${parts} receipts acknowledged`);
  });
  session.on('error', (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
  const bind = new smpp.PDU('bind_transceiver', { system_id: 'bare', password: 'bench' });
  session.send(bind, (pdu: PDU) => {
    if (pdu.command_status !== 0) throw new Error(`bind refused: ${pdu.command_status}`);
    bound = true;
    if (go) pump();
  });
}

main();
