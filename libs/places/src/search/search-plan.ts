import { isIP } from 'node:net';
import {
  CountryCode,
  DEFAULT_LIMIT,
  MunicipalityQueryRequest,
  parseLatLng,
  PlaceObject,
  PlaceQueryRequest,
  PlaceSearchBase,
  PostalQueryRequest,
  StreetQueryRequest,
} from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { NearbyQuery, PlacesStore } from '../store/places.store';
import { CANDIDATES, CandidateQuery, NEAR_KM, Pass, TermClause, termsFor } from './candidate-query';
import { parseQuery, postalDigits, QueryToken, slovakZero } from './query-parser';
import { RankOptions } from './ranking';
import { canonicalWords, isGermanText } from './doc-tokens';
import { fold, foldedWords } from './text-fold';
import { editDistance, fuzziness } from './fuzzy';
import { prefixEditDistance } from './typo-prefix';

export type SearchKind = 'query' | 'street' | 'municipality' | 'postal';

export const OBJECTS_OF: Record<SearchKind, PlaceObject[]> = {
  query: ['address'],
  street: ['street'],
  municipality: ['municipality'],
  postal: ['postal_code'],
};

/** Everything one search needs, decided before any engine is asked. */
export interface SearchPlan {
  tokens: QueryToken[];
  objects: PlaceObject[];
  countries: CountryCode[] | null;
  contextIds: string[] | null;
  postalPrefix: string | null;
  /** Strict municipality refiner: folded words the candidate's municipality must contain. */
  municipalityWords: string[] | null;
  /**
   * Municipality search refined by postal code: municipality documents carry no postal code,
   * so the service finds the postal-code documents first and keeps their municipalities.
   */
  municipalityPostal: { digits: string; strict: boolean } | null;
  /** Filled by the service from `municipalityPostal`. */
  municipalityIds?: string[] | null;
  /** The index in `tokens` of the query's word being typed (its text ends in it), else null. */
  typedAt: number | null;
  /** How many of `tokens`, from the first, are the query text's (the street field's and the refiner's words follow them); all if absent. */
  typed?: number;
  /** The other reading of the digits typed last (ParsedQuery.alternative), tried when `tokens` find nothing. */
  alternative?: { tokens: QueryToken[]; typedAt: number | null; typed: number };
  rank: RankOptions;
  limit: number;
}

/** The request of any text search (query, street, municipality, postal). */
export type SearchDto = PlaceQueryRequest | StreetQueryRequest | MunicipalityQueryRequest | PostalQueryRequest;

/** The postal search's query is digits (`746`, `74601`, `746 01`); a name falls back to the general parser. */
function postalTokens(query: string, countries: readonly string[] | null | undefined): QueryToken[] {
  const typed = postalDigits(query);
  if (typed === null) return parseQuery(query).tokens;
  const digits = slovakZero(typed, countries);
  return [{ kind: 'postal', folded: digits, lower: digits, prefix: digits.length < 5 }];
}

export interface LatLng {
  lat: number;
  lng: number;
}

const TRUE_TEXT = new Set(['true', '1']);

/**
 * Which address `around_latlng_via_ip` asks to locate: an address given as its value, else the
 * caller's (`caller_ip`, which only the gateway sets) when it is true; null when off or unknown.
 */
export function viaIpTarget(base: PlaceSearchBase): string | null {
  const v = base.around_latlng_via_ip;
  if (v === undefined || v === false || base.around_latlng) return null;
  if (v === true || (typeof v === 'string' && TRUE_TEXT.has(v.trim().toLowerCase()))) return base.caller_ip ?? null;
  if (typeof v === 'string' && isIP(v.trim())) return v.trim();
  return null;
}

/**
 * Pure: a validated request to a plan. `located` is the caller's position from
 * `around_latlng_via_ip` (see `viaIpTarget`); it biases like `around_latlng`. Refiners and `context` are filters under
 * contextType=strict (the default) and boosts under preference; for street and postal
 * searches the refiner is `municipality`, for municipality searches `postal_code`.
 */
export function planSearch(kind: SearchKind, dto: SearchDto, located: LatLng | null = null): SearchPlan {
  const base = dto as PlaceSearchBase;
  const strict = (base.contextType ?? 'strict') === 'strict';
  const parsed = kind === 'postal' ? null : parseQuery(dto.query);
  const q = dto as Partial<PlaceQueryRequest>;
  const municipality = kind !== 'municipality' ? q.municipality?.trim() : undefined;
  const typedPostal = kind === 'query' || kind === 'municipality' ? (q.postal_code ? postalDigits(q.postal_code) : null) : null;
  const postal = typedPostal === null ? null : slovakZero(typedPostal, base.country);
  const municipalityWords = municipality ? foldedWords(municipality) : null;
  // The query's tokens, then the street field's, then the municipality refiner's words the query does not have.
  const withFields = (typed: QueryToken[]): { tokens: QueryToken[]; typedAt: number | null; typed: number } => {
    const typedAt = parsed?.typing && typed.length ? typed.length - 1 : null;
    let tokens = typed;
    if (kind === 'query' && q.street) tokens = [...tokens, ...parseQuery(q.street).tokens];
    if (strict && municipalityWords?.length) {
      const known = new Set(tokens.map((t) => t.folded));
      const extra = municipalityWords.filter((w) => !known.has(w)).map((w, i, all): QueryToken => ({ kind: 'word', folded: w, lower: w, prefix: i === all.length - 1 }));
      tokens = [...tokens, ...extra];
    }
    return { tokens, typedAt, typed: typed.length };
  };
  const { tokens, typedAt, typed } = withFields(parsed ? parsed.tokens : postalTokens(dto.query, base.country));
  const alternative = parsed?.alternative ? withFields(parsed.alternative) : undefined;
  // An explicit point wins over the located caller; both bias the same bounded way.
  const around = base.around_latlng ? parseLatLng(base.around_latlng) : (located ?? null);
  return {
    tokens,
    objects: OBJECTS_OF[kind],
    countries: base.country?.length ? base.country : null,
    contextIds: strict && base.context?.length ? base.context : null,
    postalPrefix: strict && postal && kind !== 'municipality' ? postal : null,
    municipalityPostal: kind === 'municipality' && postal ? { digits: postal, strict } : null,
    municipalityWords: strict && municipalityWords?.length ? municipalityWords : null,
    typedAt,
    typed,
    ...(alternative ? { alternative } : {}),
    rank: {
      around,
      preferIds: !strict && base.context?.length ? base.context : null,
      preferMunicipality: !strict && municipality ? fold(municipality) : null,
      preferPostal: !strict && postal && kind !== 'municipality' ? postal : null,
      towns: kind === 'municipality',
    },
    limit: base.limit ?? DEFAULT_LIMIT,
  };
}

export function candidateQuery(plan: SearchPlan, pass: Pass): CandidateQuery {
  return {
    objects: plan.objects,
    countries: plan.countries,
    terms: termsFor({ tokens: plan.tokens, typing: false }, pass),
    contextIds: plan.contextIds,
    postalPrefix: plan.postalPrefix,
    size: CANDIDATES,
  };
}

/**
 * The text candidates near the search's point (`around_latlng`, or the caller located by
 * `around_latlng_via_ip`): the same query within NEAR_KM of it, nearest first. The bias is
 * applied by the ranker to the candidates it gets, and a common street name has thousands of
 * address points: the `size` the text query returns, in index order, need not hold the ones
 * near the point. Asked only when that query came back full (`found` = `size`: there may be
 * more); with fewer, every match is already a candidate. Null without a point: no engine call.
 */
export function nearCandidateQuery(plan: SearchPlan, q: CandidateQuery, found: number): CandidateQuery | null {
  const at = plan.rank.around;
  if (!at || found < q.size) return null;
  return { ...q, near: { lat: at.lat, lng: at.lng, km: NEAR_KM } };
}

/**
 * The address points around the point when the near query found none although the text query
 * came back full: SQLite asks nothing near the point past NEAR_SCAN text matches (a start of a
 * word being typed: `st`, `str`, `hor`, and common words: `horni`), so such a search had only the
 * text candidates, in index order, and a match next to the point lost to one 250 km away. A start
 * that common has matches among the points nearest the point: the engine's reverse lookup
 * (`nearby`, nearest first), in circles of the radii of nearFallbackRadii, each wider one only
 * while the last held no match and fewer than NEAR_FALLBACK_SPARSE points (a sparse area, where
 * a wider circle is still cheap: SQLite decodes every point of the circle's box, about 8 µs
 * each, up to 5 000). The service keeps the points that pass the query's filters and contain
 * every word. Null for a search of other objects than addresses (the reverse lookup finds
 * addresses only), and on OpenSearch, whose near query has no such limit: there none near the
 * point means none within NEAR_KM, and no circle would find one.
 */
export function nearFallbackQuery(plan: SearchPlan, q: CandidateQuery, metres: number, engine: PlacesStore['engine']): NearbyQuery | null {
  const at = plan.rank.around;
  if (!at || engine !== 'sqlite' || !q.objects.includes('address')) return null;
  return { lat: at.lat, lng: at.lng, metres, countries: q.countries, size: NEAR_FALLBACK_POINTS };
}

/** Points one circle of nearFallbackQuery reads at most (the nearest). */
export const NEAR_FALLBACK_POINTS = 1000;
/** A circle holding this many points is not widened (see nearFallbackQuery). */
export const NEAR_FALLBACK_SPARSE = 500;

/**
 * The first circle of nearFallbackQuery: on the whole CZ register 1 200-1 500 points in a town
 * centre (Zlín, Olomouc), about 10 ms on SQLite; `str` has some 40 matches in it at Zlín, none
 * within 300 m.
 */
export const NEAR_FALLBACK_FIRST_M = 700;

/** The radii (metres) of nearFallbackQuery's circles, each twice the last, up to NEAR_KM. */
export function nearFallbackRadii(): number[] {
  const out: number[] = [];
  for (let m = NEAR_FALLBACK_FIRST_M; m < NEAR_KM * 1000; m *= 2) out.push(m);
  return [...out, NEAR_KM * 1000];
}

/** The filters a candidate query applies in the engine, on a document found otherwise (nearFallbackQuery). */
export function passesCandidateFilters(q: CandidateQuery, d: PlaceDoc): boolean {
  if (!q.objects.includes(d.object)) return false;
  if (q.countries?.length && !q.countries.includes(d.country)) return false;
  if (q.contextIds?.length && ![d.region_id, d.county_id, d.municipality_id, d.place_id].some((id) => id && q.contextIds!.includes(id))) return false;
  if (q.postalPrefix && !d.postal_code?.startsWith(q.postalPrefix)) return false;
  return true;
}

/** The text candidates and the near ones, each document once (by place_id), in that order. */
export function mergeCandidates(text: PlaceDoc[], near: PlaceDoc[]): PlaceDoc[] {
  const seen = new Set(text.map((d) => d.place_id));
  const out = [...text];
  for (const d of near) {
    if (seen.has(d.place_id)) continue;
    seen.add(d.place_id);
    out.push(d);
  }
  return out;
}

/**
 * The typo pass runs only when the strict one found nothing: strict candidates contain every
 * word (the last as a start), so any strict result already covers the words typed, and the
 * queries without a typo never pay for the relaxed query. It needs a word it may relax.
 */
export function needsTypoPass(plan: SearchPlan, strict: readonly unknown[]): boolean {
  return strict.length === 0 && plan.tokens.some((t) => t.kind === 'word' && !t.fixed && fuzziness(t.folded) > 0);
}

/** The plan with the other reading of the digits typed last (SearchPlan.alternative), or null. */
export function otherReading(plan: SearchPlan): SearchPlan | null {
  if (!plan.alternative) return null;
  const { alternative, ...rest } = plan;
  return { ...rest, tokens: alternative.tokens, typedAt: alternative.typedAt, typed: alternative.typed };
}

/**
 * The plan without the word being typed, when nothing matches with it and other words are left:
 * the suggestions of the text before it stay while it is typed (`Vlkava č`: the start of `č. ev.`;
 * `Alšova 513 2`: of the postal code, typed without the comma). Null where it is not such a start.
 */
export function withoutTypedWord(plan: SearchPlan): SearchPlan | null {
  const at = plan.typedAt;
  if (at === null || plan.tokens.length < 2) return null;
  const t = plan.tokens[at]!;
  // Only what may start something the text does not name yet: one letter, or digits after the house number. A house number typed that
  // does not exist (`Lihovarská 81`) stays an empty answer.
  const starts = (t.kind === 'word' && t.folded.length === 1) || t.kind === 'postal' || (t.kind === 'number' && plan.tokens[at - 1]?.kind === 'number');
  return starts ? { ...plan, tokens: plan.tokens.filter((_, i) => i !== at), typedAt: null, typed: (plan.typed ?? plan.tokens.length) - 1 } : null;
}

/**
 * The plan without the words written after a whole postal code, when nothing matches with them:
 * an address is often written with its post office's town after the code, not its own
 * municipality (`Sobětuchy 45, 537 01 Chrudim`: Sobětuchy is a municipality of its own that
 * Chrudim's post office serves), and that town is typed word by word after a suggestion that
 * answered `Sobětuchy 45, 537 01`. The code stays, so only places with it answer. Null unless
 * the text has something before a whole code and only words after it.
 */
export function withoutPostOffice(plan: SearchPlan): SearchPlan | null {
  const typed = plan.typed ?? plan.tokens.length;
  let code = -1;
  for (let i = 0; i < typed; i++) if (plan.tokens[i]!.kind === 'postal' && !plan.tokens[i]!.prefix) code = i;
  if (code < 1 || code === typed - 1) return null;
  if (!plan.tokens.slice(code + 1, typed).every((t) => t.kind === 'word')) return null;
  return { ...plan, tokens: [...plan.tokens.slice(0, code + 1), ...plan.tokens.slice(typed)], typedAt: null, typed: code + 1 };
}

/**
 * The plan without the words typed after the house number, and those words: an address written
 * with its post office's town but no postal code (`Sobětuchy 45, Chrudim`: Chrudim's post office
 * serves Sobětuchy, 537 01), which the places whose postal code's own document names that town
 * answer (PlacesSearchService.atOfficeTown). Null unless an address search's text has something,
 * a house number, then only words, and neither a postal code nor a town field.
 */
export function withoutOfficeTown(plan: SearchPlan): { plan: SearchPlan; words: string[] } | null {
  if (plan.municipalityWords || plan.postalPrefix || !plan.objects.includes('address')) return null;
  const typed = plan.typed ?? plan.tokens.length;
  let number = -1;
  for (let i = 0; i < typed; i++) {
    const kind = plan.tokens[i]!.kind;
    if (kind === 'postal') return null;
    if (kind === 'number') number = i;
  }
  if (number < 1 || number === typed - 1) return null;
  const after = plan.tokens.slice(number + 1, typed);
  if (!after.every((t) => t.kind === 'word')) return null;
  const tokens = [...plan.tokens.slice(0, number + 1), ...plan.tokens.slice(typed)];
  return { plan: { ...plan, tokens, typedAt: null, typed: number + 1 }, words: after.map((t) => t.folded) };
}

/** Strict municipality refiner, checked on the document itself (the engines only saw its words); `fuzzy`: the typo pass's (namesRefiner). */
export function passesRefiners(plan: SearchPlan, d: PlaceDoc, fuzzy = false): boolean {
  if (plan.municipalityIds && plan.municipalityPostal?.strict && !plan.municipalityIds.includes(d.place_id)) return false;
  if (!plan.municipalityWords) return true;
  return namesRefiner(plan.municipalityWords, d.object === 'municipality' ? d.name : d.municipality, d, fuzzy);
}

/**
 * Whether `text` (a document's municipality or part) has the refiner's words, the last as a start.
 * `fuzzy` (the typo pass): each word within the typo pass's edits too (`Chrudm` is Chrudim).
 */
export function namesRefiner(refiner: string[], text: string | null, d: Pick<PlaceDoc, 'country'>, fuzzy = false): boolean {
  // Every form a document word is indexed under (`zurich` and `zuerich` for Zürich, `namesti` for nám.).
  const words = text ? canonicalWords(text, isGermanText(d.country)).flatMap((w) => w.forms) : [];
  return refiner.every((w, i, all) => {
    const last = i === all.length - 1;
    if (words.some((dw) => (last ? dw.startsWith(w) : dw === w))) return true;
    const edits = fuzzy ? fuzziness(w) : 0;
    return edits > 0 && words.some((dw) => (last ? prefixEditDistance(w, dw, edits) : editDistance(w, dw, edits)) <= edits);
  });
}

/** Postal-code documents whose code starts with these digits (the municipality search's refiner). */
export function postalCodeQuery(plan: SearchPlan, digits: string): CandidateQuery {
  const term: TermClause = { value: digits, mode: digits.length < 5 ? 'prefix' : 'exact' };
  return { objects: ['postal_code'], countries: plan.countries, terms: [term], contextIds: null, postalPrefix: null, size: CANDIDATES };
}
