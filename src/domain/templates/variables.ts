import { invalid } from '../errors.js';
import { charCount } from './char-count.js';

// A well-formed placeholder; the rest of the module treats any other brace as plain text.
const VARIABLE = /\{([1-9]\d*)\}/g;
// Digits in braces that may be badly numbered ({0}, {01}); caught at creation because a customer
// clearly meant a variable there.
const NUMBERED = /\{(\d+)\}/g;

/**
 * The highest N a template may use. The spec sets none, but no template within the 600-character
 * limit can number more than about 140 variables contiguously, and an unbounded N would make
 * paramCount (the number of TemplateParams a send must carry) absurd.
 */
export const MAX_VARIABLE = 999;

/**
 * {N} placeholders. variables: the distinct N in order of first appearance; paramCount: the
 * highest N (params are positional: {N} takes TemplateParams[N-1]), 0 when none.
 */
export function parseVariables(template: string): { variables: number[]; paramCount: number } {
  const variables: number[] = [];
  for (const match of template.matchAll(VARIABLE)) {
    const n = Number(match[1]);
    if (!variables.includes(n)) variables.push(n);
  }
  return { variables, paramCount: variables.length === 0 ? 0 : Math.max(...variables) };
}

/** Replaces each {N} with params[N-1]. Caller guarantees params.length === paramCount. */
export function renderTemplate(template: string, params: readonly string[]): string {
  // One pass with a replacer function: a parameter that itself contains "{1}" or "$&" is inserted
  // literally, never expanded again.
  return template.replace(VARIABLE, (_whole, digits: string) => {
    const value = params[Number(digits) - 1];
    // Sending a raw "{3}" to a customer is worse than refusing the message.
    if (value === undefined) throw invalid('TemplateParams', `has no value for {${digits}}`);
    return value;
  });
}

/** The template with every well-formed {N} removed. */
export function stripVariables(template: string): string {
  return template.replace(VARIABLE, '');
}

/** Why a {digits} placeholder is not a valid variable, or undefined when all are valid. */
export function badVariableNumber(template: string): string | undefined {
  for (const match of template.matchAll(NUMBERED)) {
    const digits = match[1] ?? '';
    if (/^0+$/.test(digits)) return `variable ${match[0]} is not valid: N starts at 1`;
    if (digits.startsWith('0')) {
      return `variable ${match[0]} is not valid: N is written without leading zeros`;
    }
    if (Number(digits) > MAX_VARIABLE) {
      return `variable ${match[0]} is not valid: N is at most ${MAX_VARIABLE}`;
    }
  }
  return undefined;
}

/** Enforces the variable rules every stored template obeys (create and update alike). */
export function checkVariables(template: string): void {
  const bad = badVariableNumber(template);
  if (bad !== undefined) throw invalid('Template', bad);
  if (stripVariables(template).trim() === '') {
    throw invalid('Template', 'must contain text besides variables');
  }
}

/**
 * The first brace in the template that does not belong to a valid {N}, described for a reviewer,
 * or undefined. Creation lets such braces through as text; the reviewer refuses them because a
 * customer who typed "{name}" most likely expected it to be filled in.
 */
export function braceProblem(template: string): string | undefined {
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '{' && c !== '}') continue;
    const numbered = c === '{' ? /^\{\d+\}/.exec(template.slice(i)) : null;
    if (numbered === null) {
      const at = charCount(template.slice(0, i)) + 1;
      return `"${c}" at character ${at} is not part of a {N} variable`;
    }
    const bad = badVariableNumber(numbered[0]);
    if (bad !== undefined) return bad;
    i += numbered[0].length - 1;
  }
  return undefined;
}
