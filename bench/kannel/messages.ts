import { BENCH_TEMPLATE, paramsFor } from '../api.js';

export type Kind = 'gsm' | 'ucs2' | 'long';
export const KINDS: readonly Kind[] = ['gsm', 'ucs2', 'long'];

export interface MessageKind {
  kind: Kind;
  label: string;
  /** Wirebird's template; Kannel and the bare client get it rendered with the same params. */
  template: string;
  ucs2: boolean;
  /** submit_sm per message. */
  parts: number;
}

const FILLER =
  ' Keep this code to yourself: Wirebird staff will never ask for it by phone, by mail or in' +
  ' a message. If you did not ask for a code, someone may be trying to sign in as you; change' +
  ' your password now and tell us at once. Thank you for using Wirebird today, have a good day!';

/** GSM-7 text rendered to exactly 300 characters when the validity has two digits. */
function longTemplate(): string {
  const head = BENCH_TEMPLATE;
  const rendered = render(head, ['123456', '10']).length;
  return head + FILLER.slice(0, 300 - rendered);
}

export const MESSAGE_KINDS: Record<Kind, MessageKind> = {
  gsm: { kind: 'gsm', label: 'GSM-7, 1 part', template: BENCH_TEMPLATE, ucs2: false, parts: 1 },
  ucs2: {
    kind: 'ucs2',
    label: 'UCS-2, 1 part',
    template: '您的Wirebird验证码是{1}，{2}分钟内有效，请勿告诉他人。',
    ucs2: true,
    parts: 1,
  },
  long: {
    kind: 'long',
    label: 'GSM-7, 300 chars, 2 parts',
    template: longTemplate(),
    ucs2: false,
    parts: 2,
  },
};

export function render(template: string, params: readonly string[]): string {
  return template.replace(/\{(\d)\}/g, (_, n: string) => params[Number(n) - 1] ?? '');
}

/** The text one number gets, as Wirebird renders it from the template and paramsFor(). */
export function textFor(kind: MessageKind, phone: string): string {
  return render(kind.template, paramsFor(Number(phone.slice(-7))));
}
