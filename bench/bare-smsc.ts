/**
 * The ceiling for the SMPP server bench: a bare `smpp` package server that answers every bind
 * and submit_sm at once, storing nothing. Run as its own process (`node bare-smsc.js <port>`),
 * so that it has a thread of its own as the gateway does.
 */
import smpp from 'smpp';

const port = Number(process.argv[2] ?? 0);
let next = 1;
const server = smpp.createServer((session) => {
  session.on('pdu', (pdu: smpp.PDU) => {
    if (pdu.command.startsWith('bind_')) session.send(pdu.response({ system_id: 'bare' }));
    else if (pdu.command === 'submit_sm')
      session.send(pdu.response({ message_id: String(next++) }));
    else if (pdu.command === 'enquire_link' || pdu.command === 'unbind')
      session.send(pdu.response());
  });
  session.on('error', () => session.destroy());
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : port);
});
