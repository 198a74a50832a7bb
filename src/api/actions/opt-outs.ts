import { Type } from '@sinclair/typebox';
import { invalid } from '../../domain/errors.js';
import {
  MAX_KEYWORDS,
  MAX_KEYWORD_LENGTH,
  changedSettings,
  type OptOut,
  type OptOutSettings,
} from '../../domain/opt-out/opt-out.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction, type ActionContext } from '../context.js';
import { IntegerLike } from './schema-types.js';
import {
  Obj,
  OptOut as OptOutSchema,
  OptOutSettings as OptOutSettingsSchema,
} from '../answer-schemas.js';
import { phonesTarget } from './audit-facts.js';

/** Phones per CreateOptOut / DeleteOptOut: a batch's worth, as SendBatchUSMSMessage takes. */
export const MAX_OPT_OUT_PHONES = 1000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const Phones = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: MAX_OPT_OUT_PHONES,
});

/**
 * The phones as E.164, each read in the account's region; a bad one names its index. The input
 * is left holding them as stored, so that the audit log names each number as every other
 * Action's entry does (E.164), not as it was typed.
 */
async function phonesOf(ctx: ActionContext, input: { Phones: string[] }): Promise<string[]> {
  const region = await ctx.defaultRegion();
  const phones = [...new Set(input.Phones.map((p, i) => e164Of(p, region, `Phones[${i}]`)))];
  input.Phones = phones;
  return phones;
}

export function optOutView(o: OptOut): Record<string, unknown> {
  return {
    Phone: o.phone,
    Source: o.source,
    Keyword: o.keyword,
    CreateTime: Math.floor(o.createdAt / 1000),
  };
}

/** Wirebird's own Action (docs/opt-out.md): numbers the account will not send to. */
export const createOptOut = defineAction(
  {
    audit: (input, answer) => ({
      action: 'opt_out.added',
      target: phonesTarget(input.Phones),
      detail: { Added: answer.Added },
    }),
    repeatable: 'safe',
    summary: 'Adds numbers the account will not send to.',
    request: Type.Object({ Phones }),
    answer: Obj({
      Added: Type.Integer({ minimum: 0 }),
      AlreadyOptedOut: Type.Integer({ minimum: 0 }),
    }),
  },
  async (ctx, input) => {
    const phones = await phonesOf(ctx, input);
    const now = ctx.deps.clock.now();
    const list = phones.map((phone) => ({
      accountId: ctx.accountId,
      phone,
      source: 'api' as const,
      keyword: '',
      createdAt: now,
    }));
    const added = await ctx.deps.store.addOptOuts(list, now);
    return { Added: added.length, AlreadyOptedOut: phones.length - added.length };
  },
);

export const deleteOptOut = defineAction(
  {
    audit: (input, answer) => ({
      action: 'opt_out.removed',
      target: phonesTarget(input.Phones),
      detail: { Removed: answer.Removed },
    }),
    repeatable: 'safe',
    summary: 'Removes numbers from the opt-out list.',
    request: Type.Object({ Phones }),
    answer: Obj({
      Removed: Type.Integer({ minimum: 0 }),
      NotOptedOut: Type.Integer({ minimum: 0 }),
    }),
  },
  async (ctx, input) => {
    const phones = await phonesOf(ctx, input);
    const now = ctx.deps.clock.now();
    const removed = await ctx.deps.store.removeOptOuts(ctx.accountId, phones, 'api', now);
    return { Removed: removed.length, NotOptedOut: phones.length - removed.length };
  },
);

export const queryOptOut = defineAction(
  {
    repeatable: 'safe',
    summary: "The account's opted-out numbers, a page at a time.",
    request: Type.Object({
      Phone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      Cursor: Type.Optional(Type.String({ pattern: '^\\+[0-9]{4,15}$' })),
      Limit: Type.Optional(IntegerLike),
    }),
    answer: Obj({ Data: Type.Array(OptOutSchema), NextCursor: Type.String() }),
  },
  async (ctx, input) => {
    const limit = input.Limit === undefined ? DEFAULT_LIMIT : Number(input.Limit);
    if (limit < 1 || limit > MAX_LIMIT) throw invalid('Limit', `must be 1 to ${MAX_LIMIT}`);
    const phone =
      input.Phone === undefined
        ? undefined
        : e164Of(input.Phone, await ctx.defaultRegion(), 'Phone');
    const page = await ctx.deps.store.listOptOuts({
      accountId: ctx.accountId,
      ...(phone === undefined ? {} : { phone }),
      ...(input.Cursor === undefined ? {} : { after: input.Cursor }),
      limit,
    });
    return { Data: page.optOuts.map(optOutView), NextCursor: page.nextCursor ?? '' };
  },
);

function settingsView(s: OptOutSettings): Record<string, unknown> {
  return {
    OptOutKeywords: s.optOutKeywords,
    OptInKeywords: s.optInKeywords,
    ExemptVerificationCodes: s.exemptVerification,
  };
}

export const getOptOutSettings = defineAction(
  {
    repeatable: 'safe',
    summary: "The account's opt-out and opt-in keywords.",
    request: Type.Object({}),
    answer: OptOutSettingsSchema,
  },
  async (ctx) => settingsView(await ctx.deps.store.optOutSettings(ctx.accountId)),
);

const Keywords = Type.Array(Type.String({ minLength: 1, maxLength: MAX_KEYWORD_LENGTH }), {
  maxItems: MAX_KEYWORDS,
});

/** Replaces the lists given (absent ones stay); a word may not both opt out and opt in. */
export const updateOptOutSettings = defineAction(
  {
    audit: (_input, answer) => ({
      action: 'opt_out.settings_changed',
      target: 'settings',
      detail: answer,
    }),
    repeatable: 'safe',
    summary: 'Replaces the keyword lists given and the verification-code exemption.',
    request: Type.Object({
      OptOutKeywords: Type.Optional(Keywords),
      OptInKeywords: Type.Optional(Keywords),
      ExemptVerificationCodes: Type.Optional(Type.Boolean()),
    }),
    answer: OptOutSettingsSchema,
  },
  async (ctx, input) => {
    const current = await ctx.deps.store.optOutSettings(ctx.accountId);
    const next = changedSettings(current, {
      ...(input.OptOutKeywords === undefined ? {} : { optOutKeywords: input.OptOutKeywords }),
      ...(input.OptInKeywords === undefined ? {} : { optInKeywords: input.OptInKeywords }),
      ...(input.ExemptVerificationCodes === undefined
        ? {}
        : { exemptVerification: input.ExemptVerificationCodes }),
    });
    await ctx.deps.store.setOptOutSettings(ctx.accountId, next);
    return settingsView(next);
  },
);
