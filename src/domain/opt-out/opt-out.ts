import { invalid } from '../errors.js';
import type { NewEvent } from '../events/event.js';

/**
 * Opt-out (docs/opt-out.md): a customer who answers STOP (or an account's own keyword) is not
 * sent to again by that account until they answer START, or the account removes the opt-out.
 */
export const DEFAULT_OPT_OUT_KEYWORDS = [
  'STOP',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  '退订',
  'T',
  'TD',
  // "拒收请回复R": the reply Chinese carriers ask promotions to offer.
  'R',
];
export const DEFAULT_OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'];

/** An account's keyword lists and whether verification codes (Purpose 1) still go out. */
export interface OptOutSettings {
  optOutKeywords: string[];
  optInKeywords: string[];
  /** Verification codes reach opted-out numbers (a customer logging in still gets the code). */
  exemptVerification: boolean;
}

export const DEFAULT_OPT_OUT_SETTINGS: OptOutSettings = {
  optOutKeywords: DEFAULT_OPT_OUT_KEYWORDS,
  optInKeywords: DEFAULT_OPT_IN_KEYWORDS,
  exemptVerification: false,
};

export const MAX_KEYWORDS = 50;
export const MAX_KEYWORD_LENGTH = 32;

/**
 * A reply as it is matched: full-width forms made ordinary (NFKC), surrounding spaces and
 * trailing punctuation gone, upper case. "  ｓｔｏｐ! " and "Stop." both read STOP.
 */
export function keywordOf(text: string): string {
  return text
    .normalize('NFKC')
    .trim()
    .replace(/[\s.!?,;:。！？，；：~～]+$/u, '')
    .trim()
    .toUpperCase();
}

/** What a reply's whole text asks for: out, back in, or nothing (any other text). */
export function keywordAction(text: string, s: OptOutSettings): 'out' | 'in' | undefined {
  const word = keywordOf(text);
  if (word === '') return undefined;
  if (s.optOutKeywords.some((k) => keywordOf(k) === word)) return 'out';
  if (s.optInKeywords.some((k) => keywordOf(k) === word)) return 'in';
  return undefined;
}

/** Where an opt-out came from. */
export type OptOutSource = 'keyword' | 'api' | 'import' | 'console';

export interface OptOut {
  accountId: number;
  /** E.164. */
  phone: string;
  source: OptOutSource;
  /** The keyword that did it, for a reply; '' otherwise. */
  keyword: string;
  /** ms */
  createdAt: number;
}

export interface OptOutFilter {
  accountId: number;
  phone?: string;
  /** After this phone (a cursor from an earlier page), in phone order. */
  after?: string;
  limit: number;
}

/** `contact.opted_out` or `contact.opted_in`: the phone, how, and when. */
export function optOutEvent(
  change: 'out' | 'in',
  o: { accountId: number; phone: string; source: OptOutSource; keyword: string; at: number },
): NewEvent {
  return {
    accountId: o.accountId,
    type: change === 'out' ? 'contact.opted_out' : 'contact.opted_in',
    at: o.at,
    data: {
      Phone: o.phone,
      Source: o.source,
      Keyword: o.keyword,
      Time: Math.floor(o.at / 1000),
    },
  };
}

/** Why a number is refused: the reason a FailContent row or a SendMessage answer gives. */
export function optedOutReason(phone: string, retCode: number): string {
  return `Phone ${phone} opted out of this account's messages (RetCode ${retCode}); it is sent to again once it opts back in (START) or the opt-out is deleted`;
}

/**
 * The settings after a change (absent parts stay): each list at most MAX_KEYWORDS words, none
 * blank, and no word both opting out and in. Throws naming the field otherwise.
 */
export function changedSettings(
  current: OptOutSettings,
  change: Partial<OptOutSettings>,
): OptOutSettings {
  const next: OptOutSettings = { ...current, ...change };
  for (const [field, list] of [
    ['OptOutKeywords', next.optOutKeywords],
    ['OptInKeywords', next.optInKeywords],
  ] as const) {
    if (list.length > MAX_KEYWORDS) throw invalid(field, `holds at most ${MAX_KEYWORDS} words`);
    const bad = list.find((k) => keywordOf(k) === '' || k.length > MAX_KEYWORD_LENGTH);
    if (bad !== undefined) {
      throw invalid(
        field,
        `has "${bad}": each word 1 to ${MAX_KEYWORD_LENGTH} characters, not only punctuation`,
      );
    }
  }
  const outs = new Set(next.optOutKeywords.map(keywordOf));
  const both = next.optInKeywords.find((k) => outs.has(keywordOf(k)));
  if (both !== undefined) {
    throw invalid(
      'OptInKeywords',
      `has ${both}, which is an opt-out keyword too; a word does one thing`,
    );
  }
  return next;
}
