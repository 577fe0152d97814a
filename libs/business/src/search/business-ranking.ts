import { BusinessDoc, isActive } from '../domain/business.doc';
import { nameKey, nameSpans } from '../domain/name-tokens';
import { cinDigits, cinKey } from '../domain/cin';
import { NameQuery } from './name-query';

/**
 * Pure ranking shared by both engines: the engines only find candidates, so the same
 * candidates come back in the same order whichever engine found them.
 */
export interface Ranked {
  doc: BusinessDoc;
  /** 0 same name, 1 name starts with the query, 2 every word matched, 3 every word as a prefix. */
  tier: number;
}

function matchTier(doc: BusinessDoc, q: NameQuery): number | null {
  const key = nameKey(doc.name);
  if (key === q.key) return 0;
  if (q.lastIsPrefix ? key.startsWith(q.key) : key.startsWith(q.key + ' ')) return 1;
  const tokens = nameSpans(doc.name).map((s) => s.token);
  const last = q.tokens.length - 1;
  const strict = q.tokens.every((t, i) => (q.lastIsPrefix && i === last ? tokens.some((d) => d.startsWith(t)) : tokens.includes(t)));
  if (strict) return 2;
  return q.tokens.every((t) => tokens.some((d) => d.startsWith(t))) ? 3 : null;
}

/** Query words written with the same diacritics as in the name. */
function diacriticsScore(doc: BusinessDoc, q: NameQuery): number {
  const words = doc.name.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return q.written.filter((w) => words.some((d) => d.startsWith(w))).length;
}

export function rankByName(docs: BusinessDoc[], q: NameQuery, limit: number): Ranked[] {
  const scored: Array<Ranked & { dia: number; key: string }> = [];
  const seen = new Set<string>();
  for (const doc of docs) {
    if (seen.has(doc.business_id)) continue;
    seen.add(doc.business_id);
    const tier = matchTier(doc, q);
    if (tier === null) continue;
    scored.push({ doc, tier, dia: diacriticsScore(doc, q), key: nameKey(doc.name) });
  }
  scored.sort(
    (a, b) =>
      a.tier - b.tier ||
      // Terminated entities below existing ones with the same name.
      Number(isActive(b.doc)) - Number(isActive(a.doc)) ||
      b.dia - a.dia ||
      a.doc.name.length - b.doc.name.length ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      (a.doc.business_id < b.doc.business_id ? -1 : 1),
  );
  return scored.slice(0, limit).map(({ doc, tier }) => ({ doc, tier }));
}

/** An id number query: digits as typed (leading zeros kept) and without leading zeros. */
export interface CinQuery {
  digits: string;
  key: string;
}

export function parseCinQuery(text: string): CinQuery | null {
  const digits = cinDigits(text);
  if (!/^\d{1,10}$/.test(digits)) return null;
  return { digits, key: cinKey(digits) };
}

export function matchesCin(cin: string, q: CinQuery): number | null {
  const key = cinKey(cin);
  if (q.key !== '' && key === q.key) return 0;
  if (cin.startsWith(q.digits)) return 1;
  if (q.key !== '' && key.startsWith(q.key)) return 2;
  return null;
}

export function rankByCin(docs: BusinessDoc[], q: CinQuery, limit: number): Ranked[] {
  const seen = new Set<string>();
  const scored: Ranked[] = [];
  for (const doc of docs) {
    if (seen.has(doc.business_id)) continue;
    seen.add(doc.business_id);
    const tier = matchesCin(doc.cin, q);
    if (tier !== null) scored.push({ doc, tier });
  }
  scored.sort(
    (a, b) =>
      a.tier - b.tier ||
      Number(isActive(b.doc)) - Number(isActive(a.doc)) ||
      (a.doc.cin < b.doc.cin ? -1 : a.doc.cin > b.doc.cin ? 1 : 0) ||
      (a.doc.business_id < b.doc.business_id ? -1 : 1),
  );
  return scored.slice(0, limit);
}
