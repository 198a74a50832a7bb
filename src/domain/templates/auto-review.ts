import { charCount } from './char-count.js';
import type { Template } from './template.js';
import { braceProblem, parseVariables } from './variables.js';

export interface ReviewRules {
  bannedWords: readonly string[];
  maxLength: number;
}

// 500 although an update may store up to 600: longer templates go to a human reviewer.
export const DEFAULT_REVIEW_RULES: ReviewRules = { bannedWords: [], maxLength: 500 };

/** Refused by the upstream provider's review (reference C5), so sending them would fail there. */
export const REFUSED_CHARACTERS: readonly string[] = ['※', '●', '★', '￥'];

type Rule = (t: Template, rules: ReviewRules) => string | undefined;

function variableSyntax(t: Template): string | undefined {
  const brace = braceProblem(t.template);
  if (brace !== undefined) return `variable syntax: ${brace}`;
  const { variables, paramCount } = parseVariables(t.template);
  for (let n = 1; n <= paramCount; n++) {
    // Params are positional, so a gap would force senders to pass a value nobody sees.
    if (!variables.includes(n)) {
      return `variable syntax: variable {${n}} is missing; variables are numbered from {1} without gaps`;
    }
  }
  return undefined;
}

function length(t: Template, rules: ReviewRules): string | undefined {
  const n = charCount(t.template);
  if (n <= rules.maxLength) return undefined;
  return `length: the template has ${n} characters; at most ${rules.maxLength} are approved automatically`;
}

function bannedWords(t: Template, rules: ReviewRules): string | undefined {
  const content = t.template.toLowerCase();
  // An empty entry would match every template; it is a configuration slip, not a rule.
  const word = rules.bannedWords.find((w) => w.trim() !== '' && content.includes(w.toLowerCase()));
  return word === undefined ? undefined : `banned words: contains the banned word "${word}"`;
}

function verificationCode(t: Template): string | undefined {
  if (t.purpose !== 1 || parseVariables(t.template).paramCount > 0) return undefined;
  return 'verification code: a verification template (Purpose 1) must contain a variable for the code';
}

function refusedCharacters(t: Template): string | undefined {
  const found = Array.from(t.template).find((c) => REFUSED_CHARACTERS.includes(c));
  if (found === undefined) return undefined;
  return `refused characters: contains "${found}"; the characters ${REFUSED_CHARACTERS.join(' ')} are not allowed`;
}

// The documented order: the first failure is the one the customer sees.
const RULES: readonly Rule[] = [
  variableSyntax,
  length,
  bannedWords,
  verificationCode,
  refusedCharacters,
];

/** The auto-reviewer's verdict on a template's content. */
export function autoReviewVerdict(
  t: Template,
  rules: ReviewRules,
): { approve: true } | { approve: false; errDesc: string } {
  for (const rule of RULES) {
    const errDesc = rule(t, rules);
    if (errDesc !== undefined) return { approve: false, errDesc };
  }
  return { approve: true };
}
