/**
 * SMPP 3.4's time format (section 7.1.1), as schedule_delivery_time and validity_period carry it:
 * 16 characters, `YYMMDDhhmmsstnnp`. Absolute: local time, tenths of a second, and that local
 * time's distance from UTC in quarter hours, `+` ahead of UTC or `-` behind. Relative (`p` = `R`):
 * years, months, days, hours, minutes and seconds from now (the tenths and quarters are 000). An
 * empty field means "not set".
 */

export type SmppTime =
  { kind: 'absent' } | { kind: 'at'; ms: number } | { kind: 'invalid'; reason: string };

const FORMAT = /^(\d{12})(\d)(\d{2})([+\-R])$/;

/** The six two-digit fields: YY MM DD hh mm ss. */
function twoDigits(s: string): number[] {
  return [0, 2, 4, 6, 8, 10].map((i) => Number(s.slice(i, i + 2)));
}

/** Reads a time field against `now` (ms): the instant it names, or why it names none. */
export function readSmppTime(raw: string, now: number): SmppTime {
  if (raw === '') return { kind: 'absent' };
  const m = FORMAT.exec(raw);
  if (!m) return { kind: 'invalid', reason: 'must be YYMMDDhhmmsstnnp (SMPP 3.4, 7.1.1)' };
  const [, date = '', tenths = '0', quarters = '0', p = ''] = m;
  const [yy = 0, mo = 0, dd = 0, hh = 0, mi = 0, ss = 0] = twoDigits(date);
  if (p === 'R') return { kind: 'at', ms: relative({ yy, mo, dd, hh, mi, ss }, now) };
  if (Number(quarters) > 48) {
    return { kind: 'invalid', reason: 'its UTC offset is more than 48 quarter hours' };
  }
  const local = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss, Number(tenths) * 100);
  const read = new Date(local);
  const real = read.getUTCMonth() === mo - 1 && read.getUTCDate() === dd;
  if (!real || hh > 23 || mi > 59 || ss > 59) {
    return { kind: 'invalid', reason: 'is not a date and time of the calendar' };
  }
  const offset = Number(quarters) * 15 * 60_000;
  return { kind: 'at', ms: p === '+' ? local - offset : local + offset };
}

interface Fields {
  yy: number;
  mo: number;
  dd: number;
  hh: number;
  mi: number;
  ss: number;
}

/** A relative time: the calendar moved by years and months, then the rest added. */
function relative(f: Fields, now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + f.yy, d.getUTCMonth() + f.mo);
  return d.getTime() + ((f.dd * 24 + f.hh) * 60 + f.mi) * 60_000 + f.ss * 1000;
}

/** What is left of a validity, as a relative time (`DDhhmmss` of days, whole seconds up). */
export function relativeSmppTime(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.min(99, Math.floor(total / 86_400));
  const rest = total - days * 86_400;
  const parts = [0, 0, days, Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60];
  return `${parts.map(two).join('')}000R`;
}
