/**
 * The UCloud API's wire form (docs/ucloud-sdk.md): every parameter is a flat string, lists are
 * spelled `Key.0`, `Key.1`, objects in lists `Key.0.Field`, booleans `true`/`false`. The SDKs
 * sign that flat form; Wirebird reads it back into the same nested body the JSON API takes.
 */
import { WirebirdError, invalid } from '../errors.js';

/** The most entries one flattened list may have: the largest list any Action takes is 1000. */
export const MAX_LIST_ENTRIES = 1000;

type Node = { leaf: string } | { children: Map<string, Node> };

/** `PhoneNumbers.0=a&PhoneNumbers.1=b` → `{ PhoneNumbers: ['a', 'b'] }`; gaps are refused. */
export function unflatten(flat: Readonly<Record<string, string>>): Record<string, unknown> {
  const root = new Map<string, Node>();
  for (const [key, value] of Object.entries(flat)) place(root, key, value);
  return objectOf(root, '');
}

function place(root: Map<string, Node>, key: string, value: string): void {
  const parts = key.split('.');
  if (parts.some((p) => p === '')) throw invalid(key, 'is not a parameter name (empty part)');
  let level = root;
  parts.forEach((part, i) => {
    const path = parts.slice(0, i + 1).join('.');
    const existing = level.get(part);
    if (i === parts.length - 1) {
      if (existing) throw invalid(path, 'is given both as a value and as a list or object');
      level.set(part, { leaf: value });
      return;
    }
    if (existing && 'leaf' in existing) {
      throw invalid(path, 'is given both as a value and as a list or object');
    }
    const node = existing ?? { children: new Map<string, Node>() };
    level.set(part, node);
    level = node.children;
  });
}

function valueOf(node: Node, path: string): unknown {
  if ('leaf' in node) return node.leaf;
  const keys = [...node.children.keys()];
  const numeric = keys.filter((k) => /^\d+$/.test(k));
  if (numeric.length === 0) return objectOf(node.children, path);
  if (numeric.length !== keys.length) {
    throw invalid(path, 'mixes numbered list entries with named fields');
  }
  return listOf(node.children, path);
}

function objectOf(children: Map<string, Node>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, node] of children) out[k] = valueOf(node, path ? `${path}.${k}` : k);
  return out;
}

function listOf(children: Map<string, Node>, path: string): unknown[] {
  if (children.size > MAX_LIST_ENTRIES) {
    throw new WirebirdError(
      'LimitExceeded',
      `${path} has ${children.size} entries; at most ${MAX_LIST_ENTRIES} are allowed`,
    );
  }
  const list: unknown[] = [];
  for (let i = 0; i < children.size; i++) {
    const node = children.get(String(i));
    if (!node) {
      const given = [...children.keys()].map(Number).sort((a, b) => a - b);
      const past = given.find((n) => n > i) ?? i;
      throw invalid(
        path,
        `has ${path}.${past} but no ${path}.${i}: list entries are numbered from 0 without gaps`,
      );
    }
    list.push(valueOf(node, `${path}.${i}`));
  }
  return list;
}

/**
 * The SDKs' encoding of a nested body into flat parameters (the reverse of unflatten), as they
 * sign it: a JSON request signed with a PublicKey is checked against this form of its body.
 */
export function flatten(body: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((v, i) => put(`${key}.${i}`, v));
    else if (typeof value === 'object') {
      // A non-array, non-null object (checked above): read field by field.
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) put(`${key}.${k}`, v);
    } else out[key] = scalarText(value);
  };
  for (const [k, v] of Object.entries(body)) put(k, v);
  return out;
}

function scalarText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** The parameter that carries the signature, and the text it is computed over. */
export const SIGNATURE_PARAM = 'Signature';

/**
 * What the SHA-1 of the UCloud signature is taken over: every parameter but the signature,
 * sorted by name, each name followed at once by its value, then the private key.
 */
export function signingText(params: Readonly<Record<string, string>>, privateKey: string): string {
  const names = Object.keys(params)
    .filter((k) => k !== SIGNATURE_PARAM)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((k) => k + (params[k] ?? '')).join('') + privateKey;
}
