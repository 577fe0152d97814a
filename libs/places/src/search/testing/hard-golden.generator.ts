import { createHash } from 'node:crypto';
import { PlaceDoc } from '../../domain/place.doc';
import { fold } from '../text-fold';
import { GoldenQuery } from './golden-queries';
import { seededRandom } from '@lookup/shared/runtime';

/**
 * The harder golden set: queries people type into a checkout form, built from the register at
 * test time (no extract of it is committed). It watches the documents of an import go by
 * (`observe`), keeps every address of a fixed sample of streets and of villages without streets
 * (picked by a hash of their ids, so the same register gives the same set), and `build` writes the queries with a seeded generator. Rank 1 where the text names exactly one
 * address, 3 otherwise.
 */
export const HARD_TYPES = [
  'typo-last', 'typo-two', 'typo-prefix', 'ul-street', 'municipality-first', 'part-instead',
  'postal-space', 'cp-written', 'mixed-case', 'same-name', 'number-kind',
] as const;

const PER_TYPE = 45;
/** One street (village part) in this many is kept: enough for every type on the whole register, a few MB. */
export const WHOLE_REGISTER_SAMPLE = { streets: 50, villages: 40 } as const;

function hash(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32BE(0);
}

const LETTERS = 'abcdefghijklmnoprstuvyz';

/** One edit (substitution, deletion, insertion, transposition) away from the first letter. */
export function typo(word: string, rnd: () => number): string {
  const i = 1 + Math.floor(rnd() * (word.length - 1));
  const letter = LETTERS[Math.floor(rnd() * LETTERS.length)];
  switch (Math.floor(rnd() * 4)) {
    case 0: return word.slice(0, i) + (word[i] === letter ? 'x' : letter) + word.slice(i + 1);
    case 1: return word.slice(0, i) + word.slice(i + 1);
    case 2: return word.slice(0, i) + letter + word.slice(i);
    default: {
      // Two equal letters swapped are no typo: one of them is dropped instead.
      const swapped = i + 1 < word.length ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + letter;
      return swapped === word ? word.slice(0, i) + word.slice(i + 1) : swapped;
    }
  }
}

/** The longest word of a name gets the typo (4+ letters, or the name is left alone). */
function typoIn(name: string, rnd: () => number): string | null {
  const words = [...name.matchAll(/\p{L}+/gu)];
  let at = -1;
  words.forEach((w, i) => (w[0].length >= 5 && (at < 0 || w[0].length > words[at][0].length) ? (at = i) : undefined));
  if (at < 0) return null;
  const w = words[at];
  const start = w.index ?? 0;
  return name.slice(0, start) + typo(w[0], rnd) + name.slice(start + w[0].length);
}

const ACCENTED: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', y: 'ý' };

/** Diacritics dropped on some letters, added on others, and the case mixed. */
function mixed(text: string, rnd: () => number): string {
  let out = '';
  for (const c of text) {
    const r = rnd();
    let x = c;
    if (r < 0.4) x = c === c.toLowerCase() ? fold(c) : fold(c).toUpperCase();
    else if (r > 0.9 && ACCENTED[c]) x = ACCENTED[c];
    out += rnd() < 0.3 ? (x === x.toLowerCase() ? x.toUpperCase() : x.toLowerCase()) : x;
  }
  return out;
}

function postalSpaced(p: string): string {
  return `${p.slice(0, 3)} ${p.slice(3)}`;
}

export class HardGoldenCollector {
  private readonly streets = new Map<string, PlaceDoc[]>();
  private readonly villages = new Map<string, PlaceDoc[]>();
  private readonly municipalities: PlaceDoc[] = [];
  /** Municipalities each part name occurs in: a part name of one municipality only names it. */
  private readonly partOf = new Map<string, Set<string>>();
  /** Every street name: a part named like a street somewhere (`Křivá`) does not name one address. */
  private readonly streetNames = new Set<string>();

  /** `sample`: keep one street (village part) in this many; a part of the register needs a denser sample. */
  constructor(private readonly sample: { streets: number; villages: number } = WHOLE_REGISTER_SAMPLE) {}

  /** Sees one batch of the import (pass-through: the import goes on with the same batch). */
  observe(batch: PlaceDoc[]): void {
    for (const d of batch) {
      if (d.country !== 'CZ') continue;
      if (d.object === 'municipality') this.municipalities.push(d);
      if (d.object !== 'address' || !d.municipality_id) continue;
      if (d.district) (this.partOf.get(d.district) ?? this.partOf.set(d.district, new Set()).get(d.district)!).add(d.municipality_id);
      if (d.street) {
        this.streetNames.add(d.street);
        const key = `${d.municipality_id}|${d.street}`;
        if (hash(key) % this.sample.streets === 0) (this.streets.get(key) ?? this.streets.set(key, []).get(key)!).push(d);
      } else if (d.district) {
        const key = `${d.municipality_id}|${d.district}`;
        if (hash(key) % this.sample.villages === 0) (this.villages.get(key) ?? this.villages.set(key, []).get(key)!).push(d);
      }
    }
  }

  /** Wraps the import's document batches so this collector sees them. */
  async *tap(batches: AsyncIterable<PlaceDoc[]>): AsyncIterable<PlaceDoc[]> {
    for await (const b of batches) {
      this.observe(b);
      yield b;
    }
  }

  build(seed = 18): GoldenQuery[] {
    const rnd = seededRandom(seed);
    const nameCount = new Map<string, number>();
    for (const m of this.municipalities) nameCount.set(m.name, (nameCount.get(m.name) ?? 0) + 1);
    const uniqueName = (d: PlaceDoc) => nameCount.get(d.municipality ?? '') === 1;
    const out: GoldenQuery[] = [];
    const add = (type: string, endpoint: string, query: string, expect: Record<string, string>, rank: number) => {
      out.push({ id: `${type}-${out.filter((q) => q.type === type).length}`, type, endpoint, params: { query, country: 'CZ' }, expect, rank });
    };
    const streetKeys = [...this.streets.keys()].sort();
    // Addresses with a street and an orientation or conscription number, one per street, in a seeded order.
    const picks = shuffle(streetKeys, rnd).map((k) => ({ street: this.streets.get(k)!, d: pickOne(this.streets.get(k)!, rnd) }));
    const numbered = picks.filter((p) => uniqueName(p.d) && p.d.street_number);
    const numberOf = (d: PlaceDoc) => d.building_number ?? d.street_number!;
    const rankOf = (street: PlaceDoc[], d: PlaceDoc) => (street.filter((o) => o.street_number === numberOf(d) || o.building_number === numberOf(d)).length === 1 ? 1 : 3);
    const expectOf = (d: PlaceDoc): Record<string, string> => ({ municipality: d.municipality!, street: d.street!, street_number: d.street_number!, ...(d.building_number ? { building_number: d.building_number } : {}) });
    const each = (type: string, make: (p: { street: PlaceDoc[]; d: PlaceDoc }) => string | null, pool = numbered) => {
      for (const p of pool) {
        if (out.filter((q) => q.type === type).length >= PER_TYPE) break;
        const text = make(p);
        if (text) add(type, '/v1/places/query', text, expectOf(p.d), rankOf(p.street, p.d));
      }
    };
    each('typo-last', ({ d }) => {
      const m = typoIn(d.municipality!, rnd);
      return m ? `${d.street} ${numberOf(d)} ${m}` : null;
    });
    each('typo-two', ({ d }) => {
      const s = typoIn(d.street!, rnd);
      const m = typoIn(d.municipality!, rnd);
      return s && m ? `${s} ${numberOf(d)} ${m}` : null;
    });
    each('typo-prefix', ({ d }) => {
      // The last word of letters (`Místek` of Frýdek-Místek), cut short and given a typo.
      const words = [...d.municipality!.matchAll(/\p{L}+/gu)];
      const last = words[words.length - 1];
      if (!last || last[0].length < 7) return null;
      const cut = last[0].slice(0, Math.max(6, Math.ceil(last[0].length * 0.75)));
      return `${d.street} ${numberOf(d)} ${d.municipality!.slice(0, last.index ?? 0)}${typo(cut, rnd)}`;
    });
    each('ul-street', ({ d }) => `ul. ${d.street} ${numberOf(d)}, ${d.municipality}`);
    each('municipality-first', ({ d }) => `${d.municipality}, ${d.street} ${numberOf(d)}`);
    const onePart = (d: PlaceDoc) => !!d.district && this.partOf.get(d.district)?.size === 1 && nameCount.get(d.district) === undefined;
    each('part-instead', ({ d }) => (onePart(d) && d.district !== d.municipality && !d.district!.includes(d.municipality!) ? `${d.street} ${numberOf(d)}, ${d.district}` : null),
      picks.filter((p) => p.d.street_number));
    each('postal-space', ({ d }) => (d.postal_code ? `${d.street} ${numberOf(d)} ${postalSpaced(d.postal_code)}` : null), picks.filter((p) => p.d.street_number));
    each('mixed-case', ({ d }) => mixed(`${d.street} ${numberOf(d)} ${d.municipality}`, rnd));
    this.villageQueries(rnd, add);
    this.sameNameQueries(add);
    this.numberKindQueries(streetKeys, add);
    return out;
  }

  /** `Podvihov č.p. 59`, `Podvihov č. ev. 3`: the part of a municipality without streets, the number kind written out. */
  private villageQueries(rnd: () => number, add: (type: string, endpoint: string, q: string, e: Record<string, string>, rank: number) => void): void {
    let n = 0;
    for (const key of shuffle([...this.villages.keys()].sort(), rnd)) {
      if (n >= PER_TYPE) break;
      const docs = this.villages.get(key)!;
      const d = pickOne(docs, rnd);
      if (!d.street_number || !d.district || this.partOf.get(d.district)?.size !== 1 || this.streetNames.has(d.district)) continue;
      const written = d.number_kind === 'ce' ? `č. ev. ${d.street_number}` : `č.p. ${d.street_number}`;
      const same = docs.filter((o) => o.street_number === d.street_number && o.number_kind === d.number_kind).length;
      add('cp-written', '/v1/places/query', `${d.district} ${written}`, { municipality: d.municipality!, district: d.district, street_number: d.street_number }, same === 1 ? 1 : 3);
      n++;
    }
  }

  /** Municipalities sharing their name with one or two others: each one by its name, told apart by county. */
  private sameNameQueries(add: (type: string, endpoint: string, q: string, e: Record<string, string>, rank: number) => void): void {
    const byName = new Map<string, PlaceDoc[]>();
    for (const m of this.municipalities) (byName.get(m.name) ?? byName.set(m.name, []).get(m.name)!).push(m);
    let n = 0;
    for (const name of [...byName.keys()].sort()) {
      const all = byName.get(name)!;
      if (all.length < 2 || all.length > 3) continue;
      for (const m of all) {
        if (n++ >= PER_TYPE) return;
        add('same-name', '/v1/places/municipality', name, { municipality: name, county: m.county ?? '' }, 3);
      }
    }
  }

  /** `Malá strana 8`: 8 is one address's orientation number and another's conscription number; with a street the orientation number first. */
  private numberKindQueries(streetKeys: string[], add: (type: string, endpoint: string, q: string, e: Record<string, string>, rank: number) => void): void {
    let n = 0;
    for (const key of streetKeys) {
      if (n >= PER_TYPE) return;
      const docs = this.streets.get(key)!;
      const co = docs.find((d) => d.building_number && docs.some((o) => o !== d && o.street_number === d.building_number && o.building_number !== d.building_number));
      if (!co || docs.filter((d) => d.building_number === co.building_number).length !== 1) continue;
      add('number-kind', '/v1/places/query', `${co.street} ${co.building_number}, ${co.municipality}`,
        { municipality: co.municipality!, street: co.street!, building_number: co.building_number!, street_number: co.street_number! }, 1);
      n++;
    }
    // Without a street: the conscription number before the evidence number of the same digits.
    for (const key of [...this.villages.keys()].sort()) {
      if (n >= PER_TYPE) return;
      const docs = this.villages.get(key)!;
      const cp = docs.find((d) => d.number_kind === 'cp' && docs.some((o) => o.number_kind === 'ce' && o.street_number === d.street_number));
      if (!cp || !cp.district || this.partOf.get(cp.district)?.size !== 1 || this.streetNames.has(cp.district) || docs.filter((d) => d.number_kind === 'cp' && d.street_number === cp.street_number).length !== 1) continue;
      add('number-kind', '/v1/places/query', `${cp.district} ${cp.street_number}`, { municipality: cp.municipality!, district: cp.district, street_number: cp.street_number! }, 1);
      n++;
    }
  }
}

function shuffle<T>(items: T[], rnd: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function pickOne<T>(items: T[], rnd: () => number): T {
  return items[Math.floor(rnd() * items.length)];
}
