import { CorrectedField, formatPostalCode, PlaceValidation, ValidationVerdict } from '@lookup/contracts';
import { formatNumber } from '../../domain/address-format';
import { PlaceDoc } from '../../domain/place.doc';
import { fold } from '../../search/text-fold';
import { seededRandom } from '@lookup/shared/runtime';

export const CASE_KINDS = ['exact', 'wrong_postal', 'misspelt_municipality', 'missing_orientation', 'nonexistent_number'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/** One typed address made from a register row, and what the register says about it. */
export interface ValidateCase {
  kind: CaseKind;
  params: Record<string, string>;
  expect: { verdict: ValidationVerdict; place_id?: string; fields?: CorrectedField[] };
  /** The town name, place and number, where only the town name tells the address from another's. */
  homonym?: number;
}

/** 53 bits of two FNV-1a hashes: a few million keys with (practically) no collision, in a Map of numbers. */
function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a * 2 ** 21 + (b & 0x1fffff);
}

const placeOf = (d: PlaceDoc) => d.street ?? d.district ?? d.municipality ?? '';
const keyOf = (d: PlaceDoc, ...parts: (string | null)[]) => [fold(placeOf(d)), ...parts.map((p) => (p ?? '').toLowerCase())].join('|');

/** One edit a typist makes (two neighbours swapped, or a letter left out), never in the first letter, in the longest word. */
export function misspell(name: string, rnd: () => number): string | null {
  const words = name.split(' ');
  const i = words.reduce((best, w, j) => (w.length > words[best].length ? j : best), 0);
  const w = words[i];
  if (fold(w).length < 5) return null;
  const at = 1 + Math.floor(rnd() * (w.length - 2));
  const typo = rnd() < 0.5 && w[at] !== w[at + 1] ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2) : w.slice(0, at) + w.slice(at + 1);
  if (fold(typo) === fold(w)) return null;
  words[i] = typo;
  return words.join(' ');
}

/**
 * Cases from one municipality's addresses at a time (the RUIAN files are per municipality, so
 * every uniqueness check is exact): each picked address becomes one case of the next kind in
 * turn that it can make, with the verdict the register implies.
 */
export class ValidateCaseGenerator {
  readonly cases: ValidateCase[] = [];
  private readonly rnd: () => number;
  private readonly postalCodes: string[] = [];
  /** Over every municipality added: municipalities of the same name with the same place and number (`Slatina 120` in five Slatinas). */
  private readonly homonyms = new Map<number, number>();
  private turn = 0;

  constructor(private readonly share: number, seed = 7) {
    this.rnd = seededRandom(seed);
  }

  addMunicipality(addresses: PlaceDoc[]): void {
    const full = new Map<string, number>();
    const byCp = new Map<string, number>();
    /** Street and conscription number of an address without an orientation number: typed alone, that one is exact. */
    const bare = new Set<string>();
    const numbers = new Map<string, Set<string>>();
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    for (const d of addresses) {
      const h = this.homonymOf(d);
      this.homonyms.set(h, (this.homonyms.get(h) ?? 0) + 1);
      count(full, keyOf(d, d.street_number, d.building_number));
      // A number typed alone is either kind: count it under both.
      // (with the postal code, which the case gives too).
      count(byCp, keyOf(d, d.postal_code, d.street_number));
      if (d.building_number && d.building_number.toLowerCase() !== d.street_number?.toLowerCase()) count(byCp, keyOf(d, d.postal_code, d.building_number));
      if (!d.building_number) bare.add(keyOf(d, d.street_number));
      const set = numbers.get(keyOf(d)) ?? new Set<string>();
      for (const n of [d.street_number, d.building_number]) if (n) set.add(n.toLowerCase());
      numbers.set(keyOf(d), set);
    }
    for (const d of addresses) {
      if (this.rnd() >= this.share || !d.municipality || !d.postal_code || !d.street_number) continue;
      if (full.get(keyOf(d, d.street_number, d.building_number))! > 1) continue;
      for (let tries = 0; tries < CASE_KINDS.length; tries++) {
        const kind = CASE_KINDS[this.turn % CASE_KINDS.length];
        this.turn++;
        const c = this.make(kind, d, { byCp, bare, numbers });
        if (c) {
          this.cases.push(c);
          break;
        }
      }
    }
    const code = addresses.find((d) => d.postal_code)?.postal_code;
    if (code && !this.postalCodes.includes(code)) this.postalCodes.push(code);
    if (this.postalCodes.length > 50) this.postalCodes.shift();
  }

  /**
   * After the last municipality: a wrong postal code or a misspelt town leaves only the town's
   * name to tell the address apart, and where a town of the same name has the same address,
   * both fit equally (ambiguous, the address among the candidates).
   */
  finish(): ValidateCase[] {
    for (const c of this.cases) {
      if (c.homonym !== undefined && this.homonyms.get(c.homonym)! > 1) c.expect = { verdict: 'ambiguous', place_id: c.expect.place_id };
    }
    return this.cases;
  }

  private homonymOf(d: PlaceDoc): number {
    return hash53(`${fold(d.municipality ?? '')}|${keyOf(d, d.number_kind, d.street_number, d.building_number)}`);
  }

  private make(kind: CaseKind, d: PlaceDoc, seen: { byCp: Map<string, number>; bare: Set<string>; numbers: Map<string, Set<string>> }): ValidateCase | null {
    const postal = formatPostalCode(d.country, d.postal_code ?? '');
    const base = { query: `${placeOf(d)} ${formatNumber(d)}`, municipality: d.municipality!, country: d.country };
    switch (kind) {
      case 'exact':
        return { kind, params: { ...base, postal_code: postal }, expect: { verdict: 'exact', place_id: d.place_id } };
      case 'wrong_postal': {
        const other = this.postalCodes.find((c) => c !== d.postal_code);
        if (!other) return null;
        return { kind, params: { ...base, postal_code: formatPostalCode(d.country, other) }, expect: { verdict: 'corrected', place_id: d.place_id, fields: ['postal_code'] }, homonym: this.homonymOf(d) };
      }
      case 'misspelt_municipality': {
        const typo = misspell(d.municipality!, this.rnd);
        if (!typo) return null;
        return { kind, params: { ...base, municipality: typo }, expect: { verdict: 'corrected', place_id: d.place_id, fields: ['municipality'] }, homonym: this.homonymOf(d) };
      }
      case 'missing_orientation': {
        if (!d.building_number || d.number_kind === 'ce' || seen.bare.has(keyOf(d, d.street_number))) return null;
        const query = `${placeOf(d)} ${d.street_number}`;
        const several = seen.byCp.get(keyOf(d, d.postal_code, d.street_number))! > 1;
        return { kind, params: { ...base, query, postal_code: postal }, expect: several ? { verdict: 'ambiguous', place_id: d.place_id } : { verdict: 'corrected', place_id: d.place_id, fields: ['building_number'] } };
      }
      case 'nonexistent_number': {
        const taken = seen.numbers.get(keyOf(d))!;
        let n = Number.parseInt(d.street_number!, 10) + 1000;
        while (taken.has(String(n))) n++;
        return { kind, params: { ...base, query: `${placeOf(d)} ${n}`, postal_code: postal }, expect: { verdict: 'not_found' } };
      }
    }
  }
}

/** Whether the answer is the one the register implies: verdict, the address itself, and exactly the parts expected. */
export function isRightAnswer(c: ValidateCase, v: PlaceValidation): boolean {
  if (v.verdict !== c.expect.verdict) return false;
  if (c.expect.verdict === 'ambiguous') return v.candidates.some((p) => p.place_id === c.expect.place_id);
  if (c.expect.place_id && v.place?.place_id !== c.expect.place_id) return false;
  const fields = v.corrections.map((x) => x.field).sort();
  return !c.expect.fields || JSON.stringify(fields) === JSON.stringify([...c.expect.fields].sort());
}
