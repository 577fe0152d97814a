import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fbtHashKey, fbtJenkinsHash, fbtTextHash, jenkinsHash, JsfbtTree } from './fbt-hash';

/* eslint-disable @typescript-eslint/no-require-imports */
// fbt's own modules (babel-plugin-fbt, a devDependency), the reference for ours.
const fbtMd5 = require('babel-plugin-fbt/dist/bin/md5Texts') as (text: string, desc: string) => string;
const fbtJenkins = require('babel-plugin-fbt/dist/jenkinsHash') as (s: string) => number;
const fbtTreeHash = require('babel-plugin-fbt/dist/fbtJenkinsHash') as (t: unknown) => number;
const fbtKey = require('babel-plugin-fbt/dist/fbtHashKey') as (t: unknown) => string;
/* eslint-enable @typescript-eslint/no-require-imports */

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../fixtures', name), 'utf8')) as { phrases: Array<Record<string, unknown>> };

const SAMPLES = ['', 'a', 'Hello, World!', 'Vítejte v obchodě', 'Žluťoučký kůň úpěl ďábelské ódy', '日本語のテキスト', 'emoji 🙂 and 𝄞', 'x'.repeat(5000), 'tab\tnew\nline "quoted" \\ back'];

describe("fbt's hashes", () => {
  it.each(SAMPLES.map((s) => [s.slice(0, 30)]))('text hash (md5 of text+desc) matches fbt for %j', (prefix) => {
    const s = SAMPLES.find((x) => x.slice(0, 30) === prefix)!;
    expect(fbtTextHash(s, 'a description')).toBe(fbtMd5(s, 'a description'));
    expect(fbtTextHash('text', s)).toBe(fbtMd5('text', s));
  });

  it('jenkinsHash matches fbt on every sample, including surrogate pairs', () => {
    for (const s of SAMPLES) expect(jenkinsHash(s)).toBe(fbtJenkins(s));
    expect(jenkinsHash('Hello, World!')).toBeGreaterThan(0);
  });

  it('reproduces every hash fbt 0.20 and fbt 1.0 collected from the fixture source', () => {
    let checked = 0;
    for (const p of fixture('shop.fbt-0.20.collection.json').phrases) {
      for (const [hash, text] of Object.entries(p['hashToText'] as Record<string, string>)) {
        expect(fbtTextHash(text, p['desc'] as string)).toBe(hash);
        checked++;
      }
    }
    for (const p of fixture('shop.fbt-1.0.collection.json').phrases) {
      for (const [hash, leaf] of Object.entries(p['hashToLeaf'] as Record<string, { text: string; desc: string }>)) {
        expect(fbtTextHash(leaf.text, leaf.desc)).toBe(hash);
        checked++;
      }
    }
    expect(checked).toBe(20);
  });

  it('fbtHashKey / fbtJenkinsHash of jsfbt trees match fbt 1.0 (same desc, mixed desc, token aliases)', () => {
    const trees = fixture('shop.fbt-1.0.collection.json').phrases.map((p) => (p['jsfbt'] as { t: JsfbtTree }).t);
    trees.push({ a: { desc: 'one', text: 'A' }, b: { desc: 'two', text: 'B' } });
    trees.push({ desc: 'aliased', text: 'Hi {=m0}', tokenAliases: { '=Hi': '=m0' } });
    for (const t of trees) {
      expect(fbtJenkinsHash(t)).toBe(fbtTreeHash(t));
      expect(fbtHashKey(t)).toBe(fbtKey(t));
    }
    expect(new Set(trees.map(fbtHashKey)).size).toBe(trees.length);
  });
});
