import { Html, escapeHtml } from './html.js';

/**
 * WhatsApp's text formatting — *bold*, _italic_, ~strike~, ```mono``` — on text that is escaped
 * first: the markers are plain ASCII that escaping leaves alone, so the tags added here are the
 * only markup in the result.
 */
const RULES: readonly [RegExp, string][] = [
  [/```([^`]+?)```/g, 'code'],
  [/(^|[\s(])\*(\S(?:[^*\n]*?\S)?)\*(?=$|[\s).,!?:;])/g, 'strong'],
  [/(^|[\s(])_(\S(?:[^_\n]*?\S)?)_(?=$|[\s).,!?:;])/g, 'em'],
  [/(^|[\s(])~(\S(?:[^~\n]*?\S)?)~(?=$|[\s).,!?:;])/g, 's'],
];

export function formatText(text: string): Html {
  let out = escapeHtml(text);
  for (const [pattern, tag] of RULES) {
    out = out.replace(pattern, (...m: string[]) =>
      tag === 'code' ? `<code>${m[1]}</code>` : `${m[1]}<${tag}>${m[2]}</${tag}>`,
    );
  }
  return new Html(out);
}
