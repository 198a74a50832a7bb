/** The template content object: an approved template's name, language and variable values. */
import { invalid, missing } from '../errors.js';
import {
  codePointLength,
  isAbsent,
  optionalArray,
  refuseUnknownFields,
  requiredObject,
  requiredString,
} from './fields.js';
import type { JsonObject } from './fields.js';
import { BODY_TEXT_MAX, parseTemplateComponent } from './template-component.js';
import type { TemplateComponent } from './template-component.js';

export interface TemplateContent {
  name: string;
  language: { code: string; policy: 'deterministic' };
  components?: TemplateComponent[];
}

export const TEMPLATE_NAME_MAX = 512;
export const COMPONENTS_MAX = 10;

// The spec fixes the form <language>_<REGION> (en_US, pt_BR); a bare "en" is refused so that the
// template the client means is never guessed.
const LANGUAGE_CODE = /^[a-z]{2,3}_[A-Z]{2}$/;

function parseLanguage(value: unknown, base: string): TemplateContent['language'] {
  const obj = requiredObject(value, base);
  refuseUnknownFields(obj, ['code', 'policy'], base, 'for a template language');
  const code = requiredString(obj, 'code', base, 16);
  if (!LANGUAGE_CODE.test(code)) {
    throw invalid(`${base}.code`, 'must be language_REGION (xx_YY or xxx_YY), such as en_US');
  }
  if (isAbsent(obj.policy)) throw missing(`${base}.policy`);
  if (obj.policy !== 'deterministic') throw invalid(`${base}.policy`, 'must be "deterministic"');
  return { code, policy: 'deterministic' };
}

/** Names the repeated component: a template has one header, one body and one button per index. */
function refuseRepeats(components: readonly TemplateComponent[], base: string): void {
  const seen = new Map<string, number>();
  components.forEach((component, i) => {
    const slot = component.type === 'button' ? `button ${component.index}` : component.type;
    const first = seen.get(slot);
    seen.set(slot, first ?? i);
    if (first === undefined) return;
    if (component.type === 'button') {
      throw invalid(`${base}[${i}].index`, `repeats the index of ${base}[${first}]`);
    }
    throw invalid(`${base}[${i}].type`, `repeats ${base}[${first}]: only one ${slot} is allowed`);
  });
}

/** WhatsApp allows long body variables only when the body is sent alone. */
function checkBodyTextLength(components: readonly TemplateComponent[], base: string): void {
  if (components.every((component) => component.type === 'body')) return;
  components.forEach((component, i) => {
    if (component.type !== 'body') return;
    component.parameters?.forEach((parameter, j) => {
      if (parameter.type !== 'text') return;
      const length = codePointLength(parameter.text);
      if (length <= BODY_TEXT_MAX) return;
      throw invalid(
        `${base}[${i}].parameters[${j}].text`,
        `must be at most ${BODY_TEXT_MAX} characters when a header or button is sent too (got ${length})`,
      );
    });
  });
}

function parseComponents(value: unknown, base: string): TemplateComponent[] | undefined {
  const items = optionalArray(value, base);
  if (items === undefined || items.length === 0) return undefined;
  if (items.length > COMPONENTS_MAX) {
    throw invalid(base, `must hold at most ${COMPONENTS_MAX} components (got ${items.length})`);
  }
  const components = Array.from(items, (item, i) => parseTemplateComponent(item, `${base}[${i}]`));
  refuseRepeats(components, base);
  checkBodyTextLength(components, base);
  return components;
}

export function parseTemplateContent(obj: JsonObject, base: string): TemplateContent {
  refuseUnknownFields(obj, ['name', 'language', 'components'], base, 'for template');
  const name = requiredString(obj, 'name', base, TEMPLATE_NAME_MAX);
  const language = parseLanguage(obj.language, `${base}.language`);
  const components = parseComponents(obj.components, `${base}.components`);
  return components === undefined ? { name, language } : { name, language, components };
}
