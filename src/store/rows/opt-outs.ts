/** Rows of opt-outs and the accounts' keyword settings, as both adapters read them. */
import {
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  type OptOut,
  type OptOutSettings,
} from '../../domain/opt-out/opt-out.js';

export const SETTINGS_COLUMNS = 'opt_out_keywords, opt_in_keywords, opt_out_exempt_verification';

export interface SettingsRow {
  opt_out_keywords: string | null;
  opt_in_keywords: string | null;
  opt_out_exempt_verification: number | boolean;
}

/** A keyword list as the store wrote it: JSON.stringify of the account's list of strings. */
function keywords(json: string): string[] {
  // Only ever written by this store, from a validated list of strings.
  return JSON.parse(json) as string[];
}

export function settingsOf(r: SettingsRow | undefined): OptOutSettings {
  return {
    optOutKeywords: r?.opt_out_keywords ? keywords(r.opt_out_keywords) : DEFAULT_OPT_OUT_KEYWORDS,
    optInKeywords: r?.opt_in_keywords ? keywords(r.opt_in_keywords) : DEFAULT_OPT_IN_KEYWORDS,
    exemptVerification: Boolean(r?.opt_out_exempt_verification),
  };
}

export const OPT_OUT_COLUMNS = 'account_id, phone, source, keyword, created_at';

export interface OptOutRow {
  account_id: number;
  phone: string;
  source: OptOut['source'];
  keyword: string;
  created_at: number;
}

export function toOptOut(r: OptOutRow): OptOut {
  return {
    accountId: r.account_id,
    phone: r.phone,
    source: r.source,
    keyword: r.keyword,
    createdAt: r.created_at,
  };
}

/** A page from rows read one past the limit; the cursor is the last phone of the page. */
export function optOutPage(
  rows: OptOutRow[],
  limit: number,
): { optOuts: OptOut[]; nextCursor: string | undefined } {
  const page = rows.slice(0, limit).map(toOptOut);
  return {
    optOuts: page,
    nextCursor: rows.length > limit ? page[page.length - 1]?.phone : undefined,
  };
}
