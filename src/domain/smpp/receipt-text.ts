/** The delivery receipt text of SMPP 3.4 Appendix B, as most SMSCs write it. */
export function receiptText(r: {
  id: string;
  stat: string;
  err: string;
  submittedAt: Date;
  doneAt: Date;
  text: string;
}): string {
  const delivered = r.stat === 'DELIVRD' ? '001' : '000';
  return (
    `id:${r.id} sub:001 dlvrd:${delivered} submit date:${smppDate(r.submittedAt)} ` +
    `done date:${smppDate(r.doneAt)} stat:${r.stat} err:${r.err} text:${r.text.slice(0, 20)}`
  );
}

/** YYMMDDhhmm in UTC. */
function smppDate(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(d.getUTCFullYear() % 100) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes())
  );
}

/** message_state for each stat (SMPP 3.4 §5.2.28). */
export const MESSAGE_STATE: Record<string, number> = {
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  UNKNOWN: 7,
  REJECTD: 8,
};
