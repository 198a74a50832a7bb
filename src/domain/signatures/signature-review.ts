import type { ReviewRules } from '../templates/auto-review.js';
import { REFUSED_CHARACTERS } from '../templates/auto-review.js';
import { reviewStep, type ReviewAction } from '../templates/template-review.js';
import type { Signature } from './signature.js';

/** Moves a signature through the same review workflow as templates. */
export function reviewSignature(
  current: Signature,
  action: ReviewAction,
  now: number,
  errDesc?: string,
): Signature {
  return reviewStep(current, { name: `signature ${current.sigId}`, action, now, errDesc });
}

/**
 * The auto-reviewer's verdict on a signature: the banned words and refused characters that
 * templates are checked for (its length and form were checked when it was created).
 */
export function signatureVerdict(
  s: Signature,
  rules: ReviewRules,
): { approve: true } | { approve: false; errDesc: string } {
  const content = s.sigContent.toLowerCase();
  const word = rules.bannedWords.find((w) => w.trim() !== '' && content.includes(w.toLowerCase()));
  if (word !== undefined) {
    return { approve: false, errDesc: `banned words: contains the banned word "${word}"` };
  }
  const refused = Array.from(s.sigContent).find((c) => REFUSED_CHARACTERS.includes(c));
  if (refused !== undefined) {
    return { approve: false, errDesc: `refused characters: contains "${refused}"` };
  }
  return { approve: true };
}
