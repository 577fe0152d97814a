import { DomainError, HashCheck } from '@lookup/contracts';
import { fbtTextHash } from '../fbt/fbt-hash';

/** One row to store: a text of an fbt phrase (a phrase with enum or plural branches has several). */
export interface NativeText {
  /** Index of the phrase in `native_strings`. */
  element: number;
  hash: string;
  text: string;
  description: string;
  author: string;
  project: string;
  type: 'text' | 'table';
  /** The phrase's jsfbt: its text, or the JSON of its table. */
  jsfbt: string;
}

export interface HashMismatch {
  element: number;
  hash: string;
  expected: string;
}

export interface ParsedNativeStrings {
  texts: NativeText[];
  /** Element index -> parent element index, from fbt's `childParentMappings`. */
  parents: Map<number, number>;
  mismatches: HashMismatch[];
}

export const MAX_PHRASES = 5000;
const MAX_TEXT = 20000;
const PARAM = 'native_strings';

const bad = (where: string, why: string) => DomainError.invalidParameter(where, why);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * fbt's collection output as the API receives it: the `phrases` array (spec) or the whole
 * `{phrases, childParentMappings}` object. Each phrase is in the fbt 0.x shape (`hashToText`,
 * `desc`, `type`, `jsfbt` string or table) or the babel-plugin-fbt 1.x shape (`hashToLeaf`
 * with per-leaf `desc`, `jsfbt` always `{t, m}`). Every bad element is reported by its index.
 */
export function parseNativeStrings(json: string, hashCheck: HashCheck = 'strict'): ParsedNativeStrings {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw bad(PARAM, `not valid JSON (${(err as Error).message}).`);
  }
  const phrases = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc['phrases']) ? doc['phrases'] : null;
  if (!phrases) throw bad(PARAM, "must be a JSON array of fbt phrases, or fbt's collection output with a `phrases` array.");
  if (phrases.length > MAX_PHRASES) throw bad(PARAM, `at most ${MAX_PHRASES} phrases per upload (got ${phrases.length}).`);

  const texts: NativeText[] = [];
  const mismatches: HashMismatch[] = [];
  phrases.forEach((p, i) => {
    for (const t of parseElement(p, i)) {
      const expected = fbtTextHash(t.text, t.description);
      if (expected !== t.hash) {
        if (hashCheck === 'strict') {
          throw bad(
            `${PARAM}[${i}].hash`,
            `"${t.hash}" is not fbt's hash of its text and description (md5 of text+desc gives "${expected}"); upload with hash_check=report to keep your own hashes.`,
          );
        }
        mismatches.push({ element: i, hash: t.hash, expected });
      }
      texts.push(t);
    }
  });
  return { texts, parents: parseParents(isObject(doc) ? doc['childParentMappings'] : undefined, phrases.length), mismatches };
}

function parseElement(p: unknown, i: number): NativeText[] {
  const at = `${PARAM}[${i}]`;
  if (!isObject(p)) throw bad(at, 'each phrase must be an object.');
  const project = optionalString(p, 'project', at);
  const author = optionalString(p, 'author', at);
  if (isObject(p['hashToText'])) return fromHashToText(p, i, at, project, author);
  if (isObject(p['hashToLeaf'])) return fromHashToLeaf(p, i, at, project, author);
  throw bad(`${at}.hashToText`, 'missing: each phrase needs hashToText ({hash: text}) or hashToLeaf ({hash: {text, desc}}).');
}

function fromHashToText(p: Record<string, unknown>, i: number, at: string, project: string, author: string): NativeText[] {
  const desc = p['desc'];
  if (typeof desc !== 'string') throw bad(`${at}.desc`, 'must be the description string.');
  const type = p['type'];
  if (type !== 'text' && type !== 'table') throw bad(`${at}.type`, 'must be "text" or "table".');
  const jsfbt = p['jsfbt'];
  if (type === 'text' && typeof jsfbt !== 'string') throw bad(`${at}.jsfbt`, 'must be a string for a phrase of type text.');
  if (type === 'table' && !(isObject(jsfbt) && 't' in jsfbt) && typeof jsfbt !== 'string') {
    throw bad(`${at}.jsfbt`, 'must be a jsfbt table ({t, m}) for a phrase of type table.');
  }
  const entries = Object.entries(p['hashToText'] as Record<string, unknown>);
  if (entries.length === 0) throw bad(`${at}.hashToText`, 'must hold at least one {hash: text} entry.');
  return entries.map(([hash, text]) => {
    checkHashKey(hash, `${at}.hashToText`);
    if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT) throw bad(`${at}.hashToText`, `the text of "${hash}" must be a non-empty string.`);
    return { element: i, hash, text, description: desc, author, project, type, jsfbt: typeof jsfbt === 'string' ? jsfbt : JSON.stringify(jsfbt) };
  });
}

function fromHashToLeaf(p: Record<string, unknown>, i: number, at: string, project: string, author: string): NativeText[] {
  const jsfbt = p['jsfbt'];
  if (!isObject(jsfbt) || !isObject(jsfbt['t'])) throw bad(`${at}.jsfbt`, 'must be a jsfbt object ({t, m}) beside hashToLeaf.');
  const t = jsfbt['t'] as Record<string, unknown>;
  const type = typeof t['text'] === 'string' && typeof t['desc'] === 'string' ? 'text' : 'table';
  // A text phrase's jsfbt is its text, as fbt 0.x writes it (the Phrase's `source.jsfbt`); a table's the JSON of {t, m}.
  const stored = type === 'text' ? (t['text'] as string) : JSON.stringify(jsfbt);
  const entries = Object.entries(p['hashToLeaf'] as Record<string, unknown>);
  if (entries.length === 0) throw bad(`${at}.hashToLeaf`, 'must hold at least one {hash: {text, desc}} entry.');
  return entries.map(([hash, leaf]) => {
    checkHashKey(hash, `${at}.hashToLeaf`);
    if (!isObject(leaf) || typeof leaf['text'] !== 'string' || !leaf['text'] || typeof leaf['desc'] !== 'string') {
      throw bad(`${at}.hashToLeaf`, `the leaf of "${hash}" must be {text, desc} strings.`);
    }
    if ((leaf['text'] as string).length > MAX_TEXT) throw bad(`${at}.hashToLeaf`, `the text of "${hash}" is too long.`);
    return { element: i, hash, text: leaf['text'] as string, description: leaf['desc'] as string, author, project, type, jsfbt: stored };
  });
}

function checkHashKey(hash: string, where: string): void {
  if (!hash || hash.length > 100) throw bad(where, `"${hash.slice(0, 40)}" is not a phrase hash (1 to 100 characters).`);
}

function optionalString(p: Record<string, unknown>, key: string, at: string): string {
  const v = p[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string' || v.length > 255) throw bad(`${at}.${key}`, 'must be a string of at most 255 characters.');
  return v;
}

function parseParents(raw: unknown, count: number): Map<number, number> {
  const parents = new Map<number, number>();
  if (raw === undefined || raw === null) return parents;
  if (!isObject(raw)) throw bad(`${PARAM}.childParentMappings`, 'must map child phrase indexes to parent indexes.');
  for (const [child, parent] of Object.entries(raw)) {
    const c = Number(child);
    if (!Number.isInteger(c) || c < 0 || c >= count || !Number.isInteger(parent) || (parent as number) < 0 || (parent as number) >= count || c === parent) {
      throw bad(`${PARAM}.childParentMappings`, `"${child}": ${JSON.stringify(parent)} does not name two phrases of this upload.`);
    }
    parents.set(c, parent as number);
  }
  return parents;
}
