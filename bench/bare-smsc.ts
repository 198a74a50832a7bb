/**
 * The ceiling for the SMPP server bench: a bare `smpp` package server that answers every bind
 * and submit_sm at once, storing nothing. Run as its own process (`node bare-smsc.js <port>
 * [receipts]`), so that it has a thread of its own as the gateway does. With `receipts`, it also
 * sends a delivery receipt (deliver_sm) for every submit that asks for one, at once, with the
 * writes of each turn corked together (the ESME then reads several PDUs at a time): what receipts
 * sent as they come cost the ESME and the machine, storing nothing.
 */
import smpp from 'smpp';

const port = Number(process.argv[2] ?? 0);
const receipts = process.argv[3] === 'receipts';
let next = 1;

/** A receipt in the usual text form; its dates are fixed, as no ESME of the bench reads them. */
function receipt(id: string, pdu: smpp.PDU): smpp.PDU {
  const stamp = '2612020000';
  return new smpp.PDU('deliver_sm', {
    source_addr: pdu.destination_addr,
    source_addr_ton: pdu.dest_addr_ton,
    source_addr_npi: pdu.dest_addr_npi,
    destination_addr: pdu.source_addr,
    esm_class: 0x04,
    short_message: `id:${id} sub:001 dlvrd:001 submit date:${stamp} done date:${stamp} stat:DELIVRD err:000 text:`,
  });
}

/** Holds the socket's writes until the turn ends: each resp and its receipt leave together. */
function corkForTurn(session: smpp.Session, corked: { now: boolean }): void {
  if (corked.now) return;
  corked.now = true;
  session.socket.cork();
  setImmediate(() => {
    corked.now = false;
    session.socket.uncork();
  });
}

const server = smpp.createServer((session) => {
  const corked = { now: false };
  session.on('pdu', (pdu: smpp.PDU) => {
    if (receipts) corkForTurn(session, corked);
    if (pdu.command.startsWith('bind_')) session.send(pdu.response({ system_id: 'bare' }));
    else if (pdu.command === 'submit_sm') {
      const id = String(next++);
      session.send(pdu.response({ message_id: id }));
      if (receipts && (Number(pdu.registered_delivery) & 1) === 1) session.send(receipt(id, pdu));
    } else if (pdu.command === 'enquire_link' || pdu.command === 'unbind')
      session.send(pdu.response());
  });
  session.on('error', () => session.destroy());
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : port);
});
