/** One component of a template message: where a set of variables goes (header, body or a button). */
import { invalid, missing } from '../errors.js';
import {
  isAbsent,
  isOneOf,
  optionalArray,
  refuseUnknownFields,
  requiredObject,
  requiredOneOf,
} from './fields.js';
import type { JsonObject } from './fields.js';
import { parseTemplateParameter } from './template-parameter.js';
import type { ParameterRule, TemplateParameter } from './template-parameter.js';

export type TemplateComponent =
  | { type: 'header'; parameters?: TemplateParameter[] }
  | { type: 'body'; parameters?: TemplateParameter[] }
  | {
      type: 'button';
      sub_type: 'url' | 'quick_reply';
      index: '0' | '1' | '2';
      parameters?: TemplateParameter[];
    };

const COMPONENT_TYPES = ['header', 'body', 'button'] as const;
const BUTTON_SUB_TYPES = ['url', 'quick_reply'] as const;
const BUTTON_INDEXES = ['0', '1', '2'] as const;

/** WhatsApp's limit on a template body variable when the body is the only component sent. */
export const BODY_ONLY_TEXT_MAX = 32768;
/** ... and when a header or a button is sent too. */
export const BODY_TEXT_MAX = 1024;

// A header and each button hold one variable; the limits are WhatsApp's for a header text and a
// URL. No limit is published for a quick-reply payload: 1024 is our bound on what we store.
const RULES = {
  header: {
    owner: 'header components',
    types: ['text', 'image', 'video', 'document'],
    maxCount: 1,
    textMax: 60,
  },
  body: {
    owner: 'body components',
    types: ['text'],
    maxCount: Number.POSITIVE_INFINITY,
    textMax: BODY_ONLY_TEXT_MAX,
  },
  url: { owner: 'url buttons', types: ['text'], maxCount: 1, textMax: 2000 },
  quick_reply: { owner: 'quick_reply buttons', types: ['payload'], maxCount: 1, textMax: 1024 },
} as const satisfies Record<string, ParameterRule>;

function parseParameters(
  obj: JsonObject,
  base: string,
  rule: ParameterRule,
): TemplateParameter[] | undefined {
  const path = `${base}.parameters`;
  const items = optionalArray(obj.parameters, path);
  if (items === undefined || items.length === 0) return undefined;
  if (items.length > rule.maxCount) {
    throw invalid(path, `must hold at most ${rule.maxCount} parameter for ${rule.owner}`);
  }
  // Array.from visits holes too, so a sparse array is refused instead of skipped.
  return Array.from(items, (item, i) => parseTemplateParameter(item, `${path}[${i}]`, rule));
}

/** Buttons are numbered "0" to "2"; integers are accepted as many clients send them. */
function buttonIndex(obj: JsonObject, base: string): '0' | '1' | '2' {
  const path = `${base}.index`;
  const value = obj.index;
  if (isAbsent(value)) throw missing(path);
  const index = typeof value === 'number' ? String(value) : value;
  if (!isOneOf(index, BUTTON_INDEXES)) throw invalid(path, 'must be "0", "1" or "2"');
  return index;
}

function withParameters<T extends TemplateComponent>(
  component: T,
  parameters: TemplateParameter[] | undefined,
): T {
  return parameters === undefined ? component : { ...component, parameters };
}

export function parseTemplateComponent(value: unknown, base: string): TemplateComponent {
  const obj = requiredObject(value, base);
  const type = requiredOneOf(obj, 'type', base, COMPONENT_TYPES);
  const allowed =
    type === 'button' ? ['type', 'sub_type', 'index', 'parameters'] : ['type', 'parameters'];
  refuseUnknownFields(obj, allowed, base, `for ${type} components`);
  if (type !== 'button') return withParameters({ type }, parseParameters(obj, base, RULES[type]));
  const sub_type = requiredOneOf(obj, 'sub_type', base, BUTTON_SUB_TYPES);
  const index = buttonIndex(obj, base);
  const parameters = parseParameters(obj, base, RULES[sub_type]);
  return withParameters({ type, sub_type, index }, parameters);
}
