import { createHash } from 'node:crypto';

/**
 * fbt's hashes, reimplemented so the runtime does not depend on babel. Checked against fbt's
 * own modules in fbt-hash.spec.ts.
 *
 * - `fbtTextHash`: the collector's default text hash (babel-plugin-fbt `bin/md5Texts`): the
 *   keys of `hashToText` / `hashToLeaf` and of the translation files `fbt-translate` reads.
 * - `jenkinsHash` / `fbtHashKey`: the runtime key (`fbt-translate --jenkins`), a Jenkins
 *   one-at-a-time hash of the jsfbt tree, in base 62.
 */
export function fbtTextHash(text: string, description: string): string {
  return createHash('md5').update(text + description).digest('base64');
}

function toUtf8(str: string): number[] {
  // fbt's own encoder: lone surrogates are paired blindly, as in its PHP dump script.
  const out: number[] = [];
  for (let i = 0; i < str.length; i++) {
    let c = str.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0xd800 || c >= 0xe000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else {
      i++;
      c = 0x10000 + (((c & 0x3ff) << 10) | (str.charCodeAt(i) & 0x3ff));
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
  }
  return out;
}

export function jenkinsHash(str: string): number {
  if (!str) return 0;
  let hash = 0;
  for (const byte of toUtf8(str)) {
    hash += byte;
    hash = (hash + (hash << 10)) >>> 0;
    hash ^= hash >>> 6;
  }
  hash = (hash + (hash << 3)) >>> 0;
  hash ^= hash >>> 11;
  hash = (hash + (hash << 15)) >>> 0;
  return hash;
}

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function toBase62(n: number): string {
  let out = '';
  do {
    out = BASE62.charAt(n % 62) + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out;
}

/** A jsfbt tree of babel-plugin-fbt 1.x: leaves are `{desc, text, tokenAliases?}`. */
export type JsfbtTree = { [key: string]: JsfbtTree } | JsfbtLeaf;
export interface JsfbtLeaf {
  desc: string;
  text: string;
  tokenAliases?: Record<string, string>;
}

function isLeaf(node: unknown): node is JsfbtLeaf {
  const o = node as Record<string, unknown>;
  return typeof o === 'object' && o !== null && typeof o['text'] === 'string' && typeof o['desc'] === 'string';
}

function mapLeaves(node: JsfbtTree, fn: (leaf: JsfbtLeaf) => unknown): unknown {
  if (isLeaf(node)) return fn(node);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = mapLeaves(v, fn);
  return out;
}

function leaves(node: JsfbtTree, acc: JsfbtLeaf[] = []): JsfbtLeaf[] {
  if (isLeaf(node)) acc.push(node);
  else for (const v of Object.values(node)) leaves(v, acc);
  return acc;
}

/** babel-plugin-fbt 1.x `fbtJenkinsHash(jsfbt.t)`. */
export function fbtJenkinsHash(tree: JsfbtTree): number {
  const all = leaves(tree);
  if (all.length === 0) throw new Error('a jsfbt tree has at least one leaf');
  const desc = all[0].desc;
  if (all.every((l) => l.desc === desc)) {
    const input = mapLeaves(tree, (l) => (l.tokenAliases != null ? { text: l.text, tokenAliases: l.tokenAliases } : l.text));
    return jenkinsHash(`${JSON.stringify(input)}|${desc}`);
  }
  const input = mapLeaves(tree, (l) => (l.tokenAliases != null ? { desc: l.desc, text: l.text, tokenAliases: l.tokenAliases } : { desc: l.desc, text: l.text }));
  return jenkinsHash(JSON.stringify(input));
}

/** babel-plugin-fbt 1.x `fbtHashKey(jsfbt.t)`: the key `fbt-translate --jenkins` writes. */
export function fbtHashKey(tree: JsfbtTree): string {
  return toBase62(fbtJenkinsHash(tree));
}
