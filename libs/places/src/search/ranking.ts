import { PlaceDoc } from '../domain/place.doc';
import { DocView, docView } from './doc-tokens';
import { editDistance, fuzziness } from './fuzzy';
import { prefixEditDistance } from './typo-prefix';
import { QueryToken } from './query-parser';
import { fold } from './text-fold';

/**
 * Scores, in points. The gaps are the ranking rules: an exact word or number beats a prefix
 * (`8` before `83`, `83` before `83a`), a prefix beats a typo, and a token a document does
 * not contain costs more than any bias can give back.
 */
export const SCORE = {
  exact: 10,
  exactDiacritics: 1,
  /** Diacritics typed that the word does not have (`Krásna` is not `Krásná`). */
  otherDiacritics: -1,
  prefixBase: 5,
  prefixSpan: 3,
  fuzzy: 4,
  /** Less per edit beyond the first: one typo before two. */
  fuzzyPerEdit: -0.5,
  /**
   * Less for a number without a role met in the other kind than people mean: a conscription
   * number when the street was named, an evidence number where it was not. Small: below the
   * exact-diacritics bonus, so only otherwise equal houses are reordered.
   */
  numberOtherKind: -0.5,
  numberRole: 2,
  numberWrongRole: 7,
  /** Less again for a number that is not an evidence number where `č. ev.` was typed: below a prefix of one that is. */
  numberNotEvidence: -2,
  /** One part of `12/3/5` rather than the whole number. */
  numberPart: -0.5,
  postalAsNumberPrefix: 4,
  missing: -10,
  coverage: 2,
  weight: 1,
  /** The weight's share where a town is chosen (`towns`): a town's size tells which of the names a prefix starts people mean. */
  townWeight: 6,
  /** A town whose name starts with what was typed, where a town is chosen (`Pra`: Praha before Jílové u Prahy). */
  townStart: 2,
  /** A town whose whole name was typed as it is written, where a town is chosen (`Bohuňov` before Bohuňovice). */
  townWhole: 2,
  preference: 3,
} as const;

/**
 * `around_latlng` bias: at most AROUND_MAX_BONUS points at the point itself, half of it at
 * AROUND_HALF_KM, fading with distance. It stays below the gap between an exact and a prefix
 * match of the same token (>= 3 points), so a strong text match far away still beats a weak
 * one nearby; among equally good matches the nearest wins.
 */
export const AROUND_MAX_BONUS = 2.5;
export const AROUND_HALF_KM = 5;

export interface RankOptions {
  around?: { lat: number; lng: number } | null;
  /** `contextType=preference`: ids of regions, counties, municipalities to boost. */
  preferIds?: string[] | null;
  /** Typo pass: words may match within the edit distance (the strict pass needs no distance computed). */
  fuzzy?: boolean;
  /** Refiners in preference mode: boosts instead of filters. */
  preferMunicipality?: string | null;
  preferPostal?: string | null;
  /**
   * A town is being chosen (municipality search, a checkout's town field): the word being typed
   * scores the same whether it is a whole word of the name or the start of a longer one (`Hrad`
   * is as much Hradec Králové as Dívčí Hrad), a name counts as covered by how much of its words
   * was typed, one that starts with what was typed comes first, and the town's size (weight)
   * counts more: `Pra` is Praha before Prace and before Jílové u Prahy.
   */
  towns?: boolean;
}

export interface TokenMatch {
  token: QueryToken;
  how: 'exact' | 'prefix' | 'fuzzy' | 'none';
}

export interface Ranked {
  doc: PlaceDoc;
  score: number;
  matches: TokenMatch[];
  distanceM?: number;
}

function prefixScore(q: string, target: string): number {
  return SCORE.prefixBase + SCORE.prefixSpan * (q.length / target.length);
}

type NumberField = 'sn' | 'bn';

/** Typed as written scores more; diacritics typed otherwise than written less; typed without any, neither. */
function diacritics(t: QueryToken, lower: string): number {
  if (lower === t.lower) return SCORE.exactDiacritics;
  return t.lower !== t.folded ? SCORE.otherDiacritics : 0;
}
/** `cover`: how much of the word met was typed (1 unless a prefix of it); `asWritten`: typed whole, diacritics and all. */
type TokenScore = { points: number; how: TokenMatch['how']; word?: number; field?: NumberField; cover?: number; asWritten?: boolean };

/** `streetNamed`: a query word met the address's street, which decides what a bare number means (`otherKind`). */
function scoreToken(t: QueryToken, v: DocView, used: Set<number>, fuzzy: boolean, streetNamed: boolean, towns = false): TokenScore {
  let best: TokenScore = { points: SCORE.missing, how: 'none' };
  const take = (points: number, how: TokenMatch['how'], word?: number, field?: NumberField, cover?: number, asWritten?: boolean) => {
    if (points > best.points) best = { points, how, word, field, cover, asWritten };
  };
  if (t.kind === 'number') {
    // `79/22a` and `c. ev. 59` say which number is which: the right field earns a bonus, the other one less than an exact match.
    const roleFits = (field: 'sn' | 'bn') => {
      if (!t.role) return 0;
      const expected = t.role === 'co' ? 'bn' : 'sn';
      const fits = field === expected && (t.role !== 'ce' || v.numberKind === 'ce');
      // `č. ev. 1` typed is an evidence number: a conscription number 1 ranks below the evidence numbers 1x being typed.
      const notEvidence = t.role === 'ce' && v.numberKind !== 'ce' ? SCORE.numberNotEvidence : 0;
      return fits ? SCORE.numberRole : SCORE.numberWrongRole - SCORE.exact + notEvidence;
    };
    if (v.numberParts) scoreNumberParts(t, v.buildingNumber ?? '', v.numberParts, take);
    else {
      for (const [field, n] of [['sn', v.streetNumber], ['bn', v.buildingNumber]] as const) {
        if (!n) continue;
        const kind = !t.role && otherKind(field, v, streetNamed) ? SCORE.numberOtherKind : 0;
        if (n === t.folded) take(SCORE.exact + roleFits(field) + kind, 'exact', undefined, field);
        else if (t.prefix && n.startsWith(t.folded)) take(prefixScore(t.folded, n) + Math.min(0, roleFits(field)), 'prefix');
      }
    }
    // A four-digit number is a house number or an AT/CH/LI postal code (`8001 Zürich`); CZ/SK codes have five digits, so never equal one.
    if (v.postal === t.folded) take(SCORE.exact, 'exact');
    else if (t.folded.length >= 3 && v.postal?.startsWith(t.folded)) take(SCORE.postalAsNumberPrefix, 'prefix');
  }
  if (t.kind === 'postal' && v.postal) {
    if (v.postal === t.folded) take(SCORE.exact, 'exact');
    else if (t.prefix && v.postal.startsWith(t.folded)) take(prefixScore(t.folded, v.postal), 'prefix');
  }
  if (t.kind !== 'postal') {
    const allowed = fuzzy && t.kind === 'word' && !t.fixed ? fuzziness(t.folded) : 0;
    v.words.forEach((w, i) => {
      const bonus = used.has(i) ? -0.5 : 0;
      // Any form of the word (`Hauptstr.` is hauptstrasse, `Müller` also mueller) meets the token; a prefix is measured on the first form it starts.
      const prefixOf = t.prefix ? w.forms.find((f) => f.startsWith(t.folded)) : undefined;
      // Choosing a town, the word being typed may be a whole word of one name and the start of another's: alike (see RankOptions.towns).
      if (w.forms.includes(t.folded) && !(towns && t.prefix)) take(SCORE.exact + diacritics(t, w.lower) + bonus, 'exact', i);
      else if (prefixOf) {
        // Choosing a town, how much of the name was typed counts once, in its coverage.
        const points = towns ? SCORE.prefixBase + SCORE.prefixSpan : prefixScore(t.folded, prefixOf);
        take(points + (w.lower.startsWith(t.lower) ? SCORE.exactDiacritics / 2 : 0) + bonus, 'prefix', i, undefined, t.folded.length / prefixOf.length, w.lower === t.lower);
      }
      else if (allowed > 0) {
        // The word being typed may have its typo anywhere in the typed start (`jihav` for jihlava).
        const edits = Math.min(...w.forms.map((f) => (t.prefix ? prefixEditDistance(t.folded, f, allowed) : editDistance(t.folded, f, allowed))));
        if (edits <= allowed) take(SCORE.fuzzy + SCORE.fuzzyPerEdit * (edits - 1) + bonus, 'fuzzy', i);
      }
    });
  }
  return best;
}

/**
 * House numbers written whole after the street (PL/AT/CH/LI: `12`, `12a`, `12/3/5`, `1-3`):
 * the whole number exactly is best, then one of its parts, in the place the slash form gives
 * it (`12/3`: 12 first, 3 second) with the same bonus and penalty as the CZ/SK roles. A prefix
 * is measured on the house number itself (`1` finds `12/3` before `140`).
 */
function scoreNumberParts(t: QueryToken, whole: string, parts: string[], take: (points: number, how: TokenMatch['how']) => void): void {
  if (whole === t.folded) take(SCORE.exact + (t.role === 'co' ? SCORE.numberWrongRole - SCORE.exact : 0), 'exact');
  const expected = t.role === 'cp' ? 0 : t.role === 'co' ? 1 : -1;
  parts.forEach((p, i) => {
    const role = expected < 0 ? 0 : expected === i ? SCORE.numberRole : SCORE.numberWrongRole - SCORE.exact;
    if (p === t.folded) take(SCORE.exact + (parts.length > 1 ? SCORE.numberPart : 0) + role, 'exact');
    else if (t.prefix && p.startsWith(t.folded)) take(prefixScore(t.folded, p) + (i > 0 ? SCORE.numberPart : 0) + Math.min(0, role), 'prefix');
  });
}

/**
 * Czech and Slovak usage: with a street people give the orientation number (`Komenského 3`),
 * in a village without streets the conscription number (`Podvihov 59`); the other kind comes
 * next.
 */
function otherKind(field: NumberField, v: DocView, streetNamed: boolean): boolean {
  if (field !== 'sn') return false;
  return streetNamed || v.numberKind === 'ce';
}

function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function distanceMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return distanceKm(a, b) * 1000;
}

/** Token positions, words first: whether the street was named decides what a bare number means. */
function wordsFirst(tokens: QueryToken[]): number[] {
  const words = tokens.flatMap((t, i) => (t.kind === 'number' ? [] : [i]));
  return [...words, ...tokens.flatMap((t, i) => (t.kind === 'number' ? [i] : []))];
}

function meetsStreet(used: Set<number>, v: DocView): boolean {
  for (const w of used) if (w < v.streetWords) return true;
  return false;
}

/** Pure: one document's score for the query tokens and options. */
export function scoreDoc(tokens: QueryToken[], doc: PlaceDoc, opts: RankOptions = {}, order: number[] = wordsFirst(tokens)): Ranked {
  const v = docView(doc);
  const used = new Set<number>();
  let score = 0;
  const matches: TokenMatch[] = new Array<TokenMatch>(tokens.length);
  let streetNamed = false;
  /** The words met, each by how much of it was typed, and whether each was typed whole as written (see RankOptions.towns). */
  let covered = 0;
  let typedAsWritten = true;
  for (const i of order) {
    const t = tokens[i];
    if (t.kind === 'number') streetNamed = meetsStreet(used, v);
    const r = scoreToken(t, v, used, opts.fuzzy ?? false, streetNamed, opts.towns);
    if (r.word !== undefined && !used.has(r.word)) {
      used.add(r.word);
      covered += r.cover ?? 1;
      if (!r.asWritten) typedAsWritten = false;
    }
    score += r.points;
    matches[i] = { token: t, how: r.how };
  }
  // Prefer documents whose own words the query covers (`Opava` before `Branka u Opavy`).
  // With the street named, the part of the municipality counts only when typed: people rarely write it.
  let counted = v.words.length;
  if (meetsStreet(used, v)) {
    counted = v.partFrom;
    for (const w of used) if (w >= v.partFrom) counted++;
  }
  if (counted > 0) score += SCORE.coverage * ((opts.towns ? covered : used.size) / counted);
  if (opts.towns && used.has(0)) score += SCORE.townStart;
  if (opts.towns && typedAsWritten && used.size === v.words.length && tokens.length === used.size) score += SCORE.townWhole;
  if (doc.weight > 0) score += (opts.towns ? SCORE.townWeight : SCORE.weight) * Math.min(1, Math.log10(1 + doc.weight) / 6);
  if (opts.preferIds?.length) {
    const ids = [doc.region_id, doc.county_id, doc.municipality_id, doc.place_id];
    if (ids.some((id) => id && opts.preferIds!.includes(id))) score += SCORE.preference;
  }
  if (opts.preferMunicipality && doc.municipality && fold(doc.municipality).startsWith(opts.preferMunicipality)) score += SCORE.preference;
  if (opts.preferPostal && v.postal?.startsWith(opts.preferPostal)) score += SCORE.preference;
  if (opts.around && doc.lat !== null && doc.lng !== null) {
    score += AROUND_MAX_BONUS / (1 + distanceKm(opts.around, { lat: doc.lat, lng: doc.lng }) / AROUND_HALF_KM);
  }
  return { doc, score, matches };
}

/** Deterministic order: score, then the shorter name, then the id. */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (b.score !== a.score) return b.score - a.score;
  const la = a.doc.name.length;
  const lb = b.doc.name.length;
  if (la !== lb) return la - lb;
  return a.doc.place_id < b.doc.place_id ? -1 : a.doc.place_id > b.doc.place_id ? 1 : 0;
}

/** Pure: scores and orders candidates; `requireAll` drops documents missing a query token. */
export function rankDocs(tokens: QueryToken[], docs: PlaceDoc[], opts: RankOptions = {}, requireAll = true): Ranked[] {
  const out: Ranked[] = [];
  const order = wordsFirst(tokens);
  for (const d of docs) {
    const r = scoreDoc(tokens, d, opts, order);
    if (requireAll && r.matches.some((m) => m.how === 'none')) continue;
    out.push(r);
  }
  return out.sort(compareRanked);
}
