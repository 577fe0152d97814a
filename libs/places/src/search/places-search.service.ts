import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import {
  COUNTRY_CODES,
  CountryCode,
  DEFAULT_DISTINCT_M,
  DEFAULT_LIMIT,
  DomainError,
  escapeHtml,
  MunicipalityQueryRequest,
  Place,
  PlaceQueryRequest,
  PlaceReverseRequest,
  PostalQueryRequest,
  StreetQueryRequest,
} from '@lookup/contracts';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { IpLocator, ipLocatorFromConfig } from '@lookup/shared/geoip';
import { timeEngine } from '@lookup/shared/metrics';
import { RawJson } from '@lookup/shared/transport';
import { jtskToWgs84 } from '../geo/sjtsk';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { PlaceDoc, placeId } from '../domain/place.doc';
import { Pass } from './candidate-query';
import { highlight } from './highlight';
import { dedupeRanked, displayText, toSearchPlace } from './place-result.mapper';
import { Ranked, rankDocs } from './ranking';
import type { QueryToken } from './query-parser';
import {
  candidateQuery,
  LatLng,
  mergeCandidates,
  nearCandidateQuery,
  nearFallbackQuery,
  nearFallbackRadii,
  NEAR_FALLBACK_SPARSE,
  passesCandidateFilters,
  needsTypoPass,
  passesRefiners,
  planSearch,
  postalCodeQuery,
  SearchDto,
  SearchKind,
  SearchPlan,
  viaIpTarget,
  namesRefiner,
  otherReading,
  withoutOfficeTown,
  withoutPostOffice,
  withoutTypedWord,
} from './search-plan';
import { CANDIDATES, CandidateQuery, termsFor } from './candidate-query';
import { StampedCache } from '../store/stamped-cache';
import { PLACES_SEARCH_THREADS, SearchThreads } from './search-threads';

const utf8 = new TextEncoder();

/**
 * The letters a town's name needs before a search reads the addresses of parts so named: a postal search's town refiner when
 * towns so named lack the code, a municipality search when no municipality has the name.
 */
const PART_REFINER_MIN_LETTERS = 6;

/** Postal codes whose municipalities are kept (a country has up to ~20 000 codes). */
const POSTAL_TOWNS_KEPT = 5_000;

/** A town refiner's words as engine terms: the last one may be a start. */
function townTerms(words: string[]): CandidateQuery['terms'] {
  return words.map((w, i) => ({ value: w, mode: i === words.length - 1 ? 'prefix' : 'exact' }));
}

/**
 * A postal-code document as answered to a search refined by `town`, one of the towns it serves:
 * named with that town, not the one most of its addresses lie in (747 41 is Hradec nad Moravicí's;
 * refined by Branka it answers `747 41 Branka u Opavy`), since a form fills the town field from it.
 */
function inTown(doc: PlaceDoc, town: PlaceDoc): PlaceDoc {
  if (doc.municipality_id === town.place_id) return doc;
  return { ...doc, municipality: town.name, municipality_id: town.place_id, county: town.county, county_id: town.county_id, region: town.region, region_id: town.region_id };
}

/** A search begun on the main thread that has to go to a search thread after all (see searchAt()). */
class NotHere extends Error {}

/** Tests hand in a locator of their own; the app builds the configured one. */
export const PLACES_IP_LOCATOR = Symbol('PLACES_IP_LOCATOR');

/** How engine calls are timed: `timeEngine` in the app; a search thread collects them for the main thread's metrics. */
export type EngineTimer = <T>(engine: string, operation: string, call: () => Promise<T>) => Promise<T>;

/**
 * One search = plan (pure) -> strict pass -> typo pass only when the strict one finds nothing
 * (every word of 4+ letters relaxed, the one being typed too); in a pass with a point whose text
 * query came back full, also the text candidates near the point -> shared ranking -> dedupe ->
 * map with highlight (same-name municipalities told apart by their county). The engine behind
 * the port only finds candidates, so SQLite and OpenSearch answer the same.
 */
@Injectable()
export class PlacesSearchService implements OnModuleInit {
  private readonly logger = new Logger('PlacesSearch');
  private readonly locator: IpLocator | null;
  /** municipalitiesOfPostal's answers, per country and code. */
  private readonly postalTowns: StampedCache<string[]>;

  constructor(
    @Inject(PLACES_STORE) private readonly store: PlacesStore,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
    @Optional() @Inject(PLACES_IP_LOCATOR) locator?: IpLocator,
    @Optional() @Inject(PLACES_SEARCH_THREADS) private readonly threads?: SearchThreads | null,
  ) {
    this.locator = locator ?? (config ? ipLocatorFromConfig(config) : null);
    this.postalTowns = new StampedCache(store, { maxEntries: POSTAL_TOWNS_KEPT });
  }

  /** Replaced in a search thread, whose metrics registry nobody scrapes. */
  timeEngine: EngineTimer = timeEngine;

  /** Opens the MMDB files (shared per process) at start, so the first via-IP search does not pay for it. */
  onModuleInit(): void {
    this.locator?.ready().catch((err: unknown) => this.logger.warn(`IP database not available, around_latlng_via_ip adds no bias: ${String(err)}`));
  }

  query(dto: PlaceQueryRequest): Promise<Place[]> {
    return this.search('query', dto);
  }

  street(dto: StreetQueryRequest): Promise<Place[]> {
    return this.search('street', dto);
  }

  municipality(dto: MunicipalityQueryRequest): Promise<Place[]> {
    return this.search('municipality', dto);
  }

  postal(dto: PostalQueryRequest): Promise<Place[]> {
    return this.search('postal', dto);
  }

  private async search(kind: SearchKind, dto: SearchDto): Promise<Place[]> {
    const located = await this.locate(viaIpTarget(dto));
    // The IP database stays in this thread; a search thread gets the position.
    return this.route(
      (t) => t.run({ op: kind, dto, located }),
      (inline) => this.searchAt(kind, dto, located, inline),
    );
  }

  /**
   * Where a search runs: here without search threads; with them, on a thread unless runsHere()
   * says this one runs here (`inline`), and then its cost is what decides where the next ones
   * run. One begun here that has to go to a thread after all (NotHere) goes there.
   */
  private async route<T>(onThread: (t: SearchThreads) => Promise<T>, run: (inline: boolean) => Promise<T>): Promise<T> {
    const threads = this.threads;
    if (!threads) return run(false);
    if (!threads.runsHere()) return onThread(threads);
    const t0 = performance.now();
    try {
      return await run(true);
    } catch (err) {
      if (err instanceof NotHere) return onThread(threads);
      throw err;
    } finally {
      threads.noteCost(performance.now() - t0);
    }
  }

  /**
   * A search answered to a transport request (the handlers): on search threads, the places come
   * back as their JSON text (RawJson), which the transport decodes for a caller that wants the
   * objects and the gateway writes as it is; otherwise the objects.
   */
  async answer(kind: SearchKind, dto: SearchDto): Promise<Place[] | RawJson> {
    const located = await this.locate(viaIpTarget(dto));
    return this.route<Place[] | RawJson>(
      (t) => t.runJson({ op: kind, dto, located }),
      async (inline) => this.asJson(await this.searchAt(kind, dto, located, inline)),
    );
  }

  /** Reverse geocoding answered to a transport request (see answer()). */
  answerReverse(dto: PlaceReverseRequest): Promise<Place[] | RawJson> {
    return this.route<Place[] | RawJson>(
      (t) => t.runJson({ op: 'reverse', dto }),
      async () => this.asJson(await this.reverseHere(dto)),
    );
  }

  /**
   * With search threads, a search run on this thread is answered as JSON text too: the gateway's
   * reply path then always sees one kind of answer. Answering the objects here after threads had
   * answered text (and back) made the main thread's code slower for every later request.
   */
  private asJson(places: Place[]): Place[] | RawJson {
    return this.threads ? new RawJson(utf8.encode(JSON.stringify(places))) : places;
  }

  /**
   * One search with the caller already located (`around_latlng_via_ip`): what a search thread
   * runs. `inline`: run on the main thread in place of a search thread (runsHere()); a typo pass
   * that would first have to read the engine's vocabulary (a quarter to half a second on a whole
   * register, once per connection and data version) throws NotHere instead, and the caller sends
   * the search to a thread, so the main thread is never held that long.
   */
  async searchAt(kind: SearchKind, dto: SearchDto, located: LatLng | null, inline = false): Promise<Place[]> {
    const plan = planSearch(kind, dto, located);
    if (plan.tokens.length === 0) return [];
    if (plan.municipalityPostal) {
      const digits = plan.municipalityPostal.digits;
      const codes = await this.candidates(postalCodeQuery(plan, digits));
      const ids = new Set(codes.map((c) => c.municipality_id).filter((id): id is string => !!id));
      // A whole code serves several municipalities (537 01: Chrudim, Lány, Dřenice, ...); its document names the one most of its addresses lie in.
      for (const c of codes) if (c.postal_code === digits) for (const id of await this.municipalitiesOfPostal(c.country, digits)) ids.add(id);
      plan.municipalityIds = [...ids];
      // Strict: the engine reads only those municipalities (a first letter, `P`, has more matches than it returns, and Přelouč need not be among them).
      if (plan.municipalityPostal.strict && ids.size && !plan.contextIds) plan.contextIds = plan.municipalityIds;
      if (!plan.municipalityPostal.strict) plan.rank = { ...plan.rank, preferIds: [...(plan.rank.preferIds ?? []), ...ids] };
    }
    let [shown, ranked] = await this.found(plan, inline);
    // Nothing in the town field's town: it may be the post office's town of the postal-code field (officeTownFreed).
    const freed = ranked.length === 0 ? await this.officeTownFreed(kind, dto, located, plan) : null;
    if (freed) [shown, ranked] = await this.found(freed, inline);
    let docs = dedupeRanked(ranked, plan.limit);
    // A municipality search that no municipality's name answers (only the typo pass did, or nothing): the municipalities with a
    // part so named first (`Krasoňov`: Humpolec), shown as `Krasoňov (Humpolec)` (partLabels).
    const partLabels = new Map<PlaceDoc, string>();
    if (plan.objects.length === 1 && plan.objects[0] === 'municipality' && !plan.municipalityPostal && ranked.every((r) => r.matches.some((m) => m.how === 'fuzzy'))) {
      for (const [doc, part] of await this.municipalitiesByPart(shown)) partLabels.set(doc, `${part} (${displayText(doc)})`);
      if (partLabels.size) docs = dedupeRanked([...partLabels.keys(), ...docs].map((doc) => ({ doc })), plan.limit);
    }
    // A postal search refined by a town: after the codes whose document names it, the other codes its addresses have
    // (townPostalCodes), when those did not fill the answer (what comes after them would not be shown).
    if (docs.length < plan.limit && plan.objects.length === 1 && plan.objects[0] === 'postal_code' && plan.municipalityWords) {
      const seen = new Set(ranked.map((r) => r.doc.place_id));
      docs = dedupeRanked([...ranked, ...(await this.townPostalCodes(plan, inline)).filter((r) => !seen.has(r.doc.place_id))], plan.limit);
    }
    return docs.map((d) => toSearchPlace(d, highlight(partLabels.get(d) ?? displayText(d, docs), shown.tokens)));
  }

  /**
   * The municipalities with a part named by the query's words (a part is a village or quarter of a municipality: Krasoňov of
   * Humpolec), each with that part's name, the larger first (weight): the municipalities of the addresses with those words whose
   * part is so named. Only for a name of PART_REFINER_MIN_LETTERS letters or more (a short start matches tens of thousands of addresses).
   */
  private async municipalitiesByPart(plan: SearchPlan): Promise<Map<PlaceDoc, string>> {
    const out = new Map<PlaceDoc, string>();
    const words = plan.tokens.map((t) => t.folded);
    if (plan.tokens.some((t) => t.kind !== 'word') || words.join('').length < PART_REFINER_MIN_LETTERS) return out;
    const addresses = await this.candidates({ objects: ['address'], countries: plan.countries, contextIds: plan.contextIds, postalPrefix: null, size: CANDIDATES, terms: townTerms(words) });
    const parts = new Map<string, string>();
    for (const a of addresses) {
      if (a.municipality_id && a.district && a.district !== a.municipality && !parts.has(a.municipality_id) && namesRefiner(words, a.district, a)) parts.set(a.municipality_id, a.district);
    }
    if (parts.size === 0) return out;
    const towns = await this.timeEngine(this.store.engine, 'places.municipalities_by_id', () => this.store.getMany([...parts.keys()]));
    towns.sort((a, b) => b.weight - a.weight || (a.place_id < b.place_id ? -1 : 1));
    for (const t of towns) out.set(t, parts.get(t.place_id)!);
    return out;
  }

  /**
   * The postal codes the addresses of the refining town have: a postal-code document names the one
   * municipality most of its addresses lie in (537 01: Chrudim), so Lány, whose addresses have
   * 537 01 too, found no code. The towns the refiner's words name (up to 20), then the codes
   * starting as typed that their documents have (the store reads them from an index), then those
   * codes' documents. No town and no part so named: the towns a typo pass names (`Chrudm`).
   */
  private async townPostalCodes(plan: SearchPlan, inline: boolean): Promise<Ranked[]> {
    const words = plan.municipalityWords!;
    const code = plan.tokens[0];
    if (!code || code.kind !== 'postal') return [];
    const named = await this.candidates({ objects: ['municipality'], countries: plan.countries, contextIds: plan.contextIds, postalPrefix: null, size: 20, terms: townTerms(words) });
    let towns = new Map(named.filter((t) => passesRefiners(plan, t)).map((t) => [t.place_id, t]));
    if (towns.size === 0) {
      const inParts = await this.partPostalCodes(plan, code);
      if (inParts.length) return inParts;
      towns = await this.townsByTypo(plan, inline);
      if (towns.size === 0) return [];
    }
    const found = await this.timeEngine(this.store.engine, 'places.municipality_postal_codes', () => this.store.municipalityPostalCodes([...towns.keys()], code.folded, CANDIDATES));
    // Each code with the (first) town it was found in.
    const byId = new Map<string, PlaceDoc>();
    for (const f of found) {
      const town = towns.get(f.municipality_id)!;
      const id = placeId(town.country, 'postal_code', f.postal_code);
      if (!byId.has(id)) byId.set(id, town);
    }
    const docs = await this.codesInTowns(byId);
    if (docs.length) return rankDocs([code], docs, plan.rank);
    // Towns so named have no such code: a part may (Oldřichovice of Ústí nad Orlicí, 562 06, beside the town Oldřichovice). Not for
    // a short start (`Nová`, `Lhota`: 25 000-37 000 addresses to read, 20-45 ms on the whole CZ register, for a code no part has).
    return words.join('').length >= PART_REFINER_MIN_LETTERS ? this.partPostalCodes(plan, code) : [];
  }

  /** The municipalities the typo pass finds for the town refiner's words (up to 20), by id. */
  private async townsByTypo(plan: SearchPlan, inline: boolean): Promise<Map<string, PlaceDoc>> {
    const words = plan.municipalityWords!;
    const tokens = words.map((w, i): QueryToken => ({ kind: 'word', folded: w, lower: w, prefix: i === words.length - 1 }));
    const q: CandidateQuery = { objects: ['municipality'], countries: plan.countries, contextIds: plan.contextIds, postalPrefix: null, size: 20, terms: termsFor({ tokens, typing: false }, 'fuzzy') };
    if (inline && this.store.typoPassReady?.(q.objects, q.countries) === false) throw new NotHere();
    return new Map((await this.candidates(q)).filter((t) => passesRefiners(plan, t, true)).map((t) => [t.place_id, t]));
  }

  /**
   * No town of the refiner's name has a code starting so: a part of one may (`Krasoňov`, part of Humpolec, 396 01). The
   * codes of the addresses with those words whose part is so named, each answered with the
   * municipality of its addresses (a Czech postal address writes `Krasoňov 12, 396 01 Humpolec`).
   */
  private async partPostalCodes(plan: SearchPlan, code: QueryToken): Promise<Ranked[]> {
    const words = plan.municipalityWords!;
    const addresses = await this.candidates({ objects: ['address'], countries: plan.countries, contextIds: plan.contextIds, postalPrefix: code.folded, size: CANDIDATES, terms: townTerms(words) });
    const byId = new Map<string, PlaceDoc>();
    for (const a of addresses) {
      if (!a.postal_code || !a.municipality_id || !namesRefiner(words, a.district, a)) continue;
      const id = placeId(a.country, 'postal_code', a.postal_code);
      if (!byId.has(id)) byId.set(id, { ...a, place_id: a.municipality_id, name: a.municipality ?? a.name });
    }
    return rankDocs([code], await this.codesInTowns(byId), plan.rank);
  }

  /** The postal-code documents of these ids (read in one engine call), in the map's order, each named with the town it was found in (inTown). */
  private async codesInTowns(byId: ReadonlyMap<string, PlaceDoc>): Promise<PlaceDoc[]> {
    if (byId.size === 0) return [];
    const found = await this.timeEngine(this.store.engine, 'places.postal_codes_by_id', () => this.store.getMany([...byId.keys()]));
    const docs = new Map(found.map((d) => [d.place_id, d]));
    return [...byId].flatMap(([id, town]) => (docs.has(id) ? [inTown(docs.get(id)!, town)] : []));
  }

  /** The municipality each of these postal-code documents names (its post office's town), by id, read in one engine call; ids without a document are left out. */
  private async officeTowns(ids: readonly string[]): Promise<Map<string, string | null>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const docs = await this.timeEngine(this.store.engine, 'places.postal_codes_by_id', () => this.store.getMany(unique));
    return new Map(docs.map((d) => [d.place_id, d.municipality]));
  }

  /** The municipality the postal code's own document names in each of these countries (its post office's town; null where none). */
  async postalCodeTowns(countries: readonly CountryCode[], digits: string): Promise<Map<CountryCode, string | null>> {
    const towns = digits ? await this.officeTowns(countries.map((c) => placeId(c, 'postal_code', digits))) : new Map<string, string | null>();
    return new Map(countries.map((c) => [c, (digits && towns.get(placeId(c, 'postal_code', digits))) || null]));
  }

  /**
   * The town each place's postal code's own document names (its post office's: Chrudim for
   * Sobětuchy 45, 537 01), as a function of the place; null where the place has no code or the
   * code no document. One engine call for all of them.
   */
  async officeTownsOf(places: readonly Place[]): Promise<(p: Place) => string | null> {
    const codeId = (p: Place) => (p.postal_code && p.country ? placeId(p.country as CountryCode, 'postal_code', p.postal_code.replace(/[\s-]/g, '')) : null);
    const towns = await this.officeTowns(places.flatMap((p) => codeId(p) ?? []));
    return (p) => towns.get(codeId(p) ?? '') ?? null;
  }

  /** The addresses whose postal code's own document names the town of `words` (its post office's; read in one engine call). */
  private async atOfficeTown(ranked: Ranked[], words: string[]): Promise<Ranked[]> {
    const codeId = (r: Ranked) => (r.doc.postal_code ? placeId(r.doc.country, 'postal_code', r.doc.postal_code) : null);
    const town = await this.officeTowns(ranked.flatMap((r) => codeId(r) ?? []));
    return ranked.filter((r) => codeId(r) !== null && namesRefiner(words, town.get(codeId(r)!) ?? null, r.doc));
  }

  /** What a plan finds (rankedFor), else the other reading of its digits typed last, else the text before the word being typed. */
  private async found(plan: SearchPlan, inline: boolean): Promise<[SearchPlan, Ranked[]]> {
    let [shown, ranked] = await this.rankedFor(plan, inline);
    // Nothing: the other reading of the digits typed last (`Alšova 208 37`: 208 and the start of a postal code), if any.
    const other = ranked.length === 0 ? otherReading(plan) : null;
    if (other) [shown, ranked] = await this.rankedFor(other, inline);
    // Nothing with the word being typed: what the text before it finds (withoutTypedWord).
    const before = ranked.length === 0 ? withoutTypedWord(shown) : null;
    if (before) [shown, ranked] = await this.rankedFor(before, inline);
    return [shown, ranked];
  }

  /**
   * An address search whose `municipality` names the town of its `postal_code`'s own document, the
   * post office's (a three-field form: `Sobětuchy 45`, town `Chrudim`, code `537 01`, as a Czech
   * address is often written): the plan without the town refiner, the code refining alone. Null
   * for any other town, or without both fields.
   */
  private async officeTownFreed(kind: SearchKind, dto: SearchDto, located: LatLng | null, plan: SearchPlan): Promise<SearchPlan | null> {
    const words = plan.municipalityWords;
    if (kind !== 'query' || !plan.postalPrefix || !words) return null;
    const towns = await this.postalCodeTowns(plan.countries ?? COUNTRY_CODES, plan.postalPrefix);
    if (![...towns].some(([country, town]) => namesRefiner(words, town, { country }))) return null;
    return planSearch(kind, { ...dto, municipality: undefined } as SearchDto, located);
  }

  /**
   * The strict pass; when it finds nothing, the strict pass without the town written after a whole
   * postal code (withoutPostOffice: its post office's town, `Sobětuchy 45, 537 01 Chrudim`, before
   * a typo pass guesses at it: `Cihelní, 747 41 Hradec` is not Na Cihelně in Hradec), or without
   * the words after the house number where no code was written, kept to the places whose code's
   * own document names them (withoutOfficeTown: `Sobětuchy 45, Chrudim`), then the typo pass of each. The plan that found them comes with the answer (its tokens are highlighted).
   */
  private async rankedFor(plan: SearchPlan, inline: boolean): Promise<[SearchPlan, Ranked[]]> {
    const ranked = await this.pass(plan, 'strict');
    if (ranked.length) return [plan, ranked];
    const office = withoutPostOffice(plan);
    const atOffice = office ? await this.pass(office, 'strict') : [];
    if (atOffice.length) return [office!, atOffice];
    // The same written without the code (`Sobětuchy 45, Chrudim`): the places whose code's own document names the town.
    const town = office ? null : withoutOfficeTown(plan);
    const inTown = town ? await this.pass(town.plan, 'strict') : [];
    const atTown = town ? await this.atOfficeTown(inTown, town.words) : [];
    if (atTown.length) return [town!.plan, atTown];
    if (needsTypoPass(plan, ranked)) {
      const fuzzy = await this.pass(plan, 'fuzzy', inline);
      if (fuzzy.length) return [plan, fuzzy];
    }
    if (office && needsTypoPass(office, atOffice)) return [office, await this.pass(office, 'fuzzy', inline)];
    if (town && needsTypoPass(town.plan, inTown)) return [town.plan, await this.atOfficeTown(await this.pass(town.plan, 'fuzzy', inline), town.words)];
    return [plan, ranked];
  }

  private async pass(plan: SearchPlan, pass: Pass, inline = false): Promise<Ranked[]> {
    const q = candidateQuery(plan, pass);
    if (inline && this.store.typoPassReady?.(q.objects, q.countries) === false) throw new NotHere();
    let docs = await this.candidates(q);
    // With a point and more text matches than fetched, the ones near the point as well (see nearCandidateQuery).
    const near = nearCandidateQuery(plan, q, docs.length);
    if (near) {
      const close = await this.candidates(near, 'places.candidates_near');
      // None near the point (SQLite past NEAR_SCAN matches: a start being typed): the address points around it (see nearFallbackQuery).
      docs = mergeCandidates(docs, close.length > 0 ? close : await this.nearbyCandidates(plan, q, pass));
    }
    docs = docs.filter((d) => passesRefiners(plan, d, pass === 'fuzzy'));
    return rankDocs(plan.tokens, docs, { ...plan.rank, fuzzy: pass === 'fuzzy' });
  }

  /** The address points nearest the search's point that pass the query's filters and contain every word (see nearFallbackQuery). */
  private async nearbyCandidates(plan: SearchPlan, q: CandidateQuery, pass: Pass): Promise<PlaceDoc[]> {
    for (const metres of nearFallbackRadii()) {
      const around = nearFallbackQuery(plan, q, metres, this.store.engine);
      if (!around) return [];
      const hits = await this.timeEngine(this.store.engine, 'places.candidates_nearby', () => this.store.nearby(around));
      const docs = hits.map((h) => h.doc).filter((d) => passesCandidateFilters(q, d));
      const matching = rankDocs(plan.tokens, docs, { fuzzy: pass === 'fuzzy' }).map((r) => r.doc);
      if (matching.length > 0 || hits.length >= NEAR_FALLBACK_SPARSE) return matching;
    }
    return [];
  }

  /**
   * The municipalities whose addresses have this whole postal code (see
   * PlacesStore.postalMunicipalities), kept per code while the store's data stamp stays: a town
   * field refined by the postal code asks at every keystroke.
   */
  private async municipalitiesOfPostal(country: CountryCode, code: string): Promise<string[]> {
    return this.postalTowns.get(`${country}:${code}`, () =>
      this.timeEngine(this.store.engine, 'places.postal_municipalities', () => this.store.postalMunicipalities(country, code)),
    );
  }

  /** The engine call, timed per engine for `lookup_engine_duration_seconds`. */
  private candidates(q: CandidateQuery, operation = 'places.candidates'): Promise<PlaceDoc[]> {
    return this.timeEngine(this.store.engine, operation, () => this.store.candidates(q));
  }

  /**
   * The caller's position for `around_latlng_via_ip`: null (no bias, no error) for no address,
   * a private one, one the database does not know, or a database that failed to open.
   */
  private async locate(ip: string | null): Promise<LatLng | null> {
    if (!ip || !this.locator) return null;
    try {
      const at = await this.locator.locate(ip);
      return at && at.latitude !== null && at.longitude !== null ? { lat: at.latitude, lng: at.longitude } : null;
    } catch {
      return null;
    }
  }

  reverse(dto: PlaceReverseRequest): Promise<Place[]> {
    return this.route(
      (t) => t.run({ op: 'reverse', dto }),
      () => this.reverseHere(dto),
    );
  }

  /** Reverse geocoding in this thread (what a search thread runs). */
  async reverseHere(dto: PlaceReverseRequest): Promise<Place[]> {
    const point = dto.lat !== undefined && dto.lng !== undefined ? { lat: dto.lat, lng: dto.lng } : jtskPoint(dto.jtskX, dto.jtskY);
    const hits = await this.timeEngine(this.store.engine, 'places.nearby', () => this.store.nearby({
      ...point,
      metres: dto.distinct ?? DEFAULT_DISTINCT_M,
      countries: dto.country?.length ? dto.country : null,
      size: Math.max(dto.limit ?? DEFAULT_LIMIT, 20),
    }));
    return dedupeRanked(hits, dto.limit ?? DEFAULT_LIMIT).map((d) => toSearchPlace(d, escapeHtml(displayText(d))));
  }
}

/** Either sign convention; X is the larger axis, so swapped numbers are put right. */
function jtskPoint(x: number | undefined, y: number | undefined): { lat: number; lng: number } {
  if (x === undefined || y === undefined) throw DomainError.missingParameter(x === undefined ? 'jtskX' : 'jtskY');
  const [big, small] = Math.abs(x) >= Math.abs(y) ? [x, y] : [y, x];
  return jtskToWgs84(big, small);
}
