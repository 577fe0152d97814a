import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_DISTINCT_M,
  DEFAULT_LIMIT,
  DomainError,
  MunicipalityQueryRequest,
  Place,
  PlaceQueryRequest,
  PlaceReverseRequest,
  PostalQueryRequest,
  StreetQueryRequest,
} from '@lookup/contracts';
import { jtskToWgs84 } from '../geo/sjtsk';
import { PLACES_STORE, PlacesStore } from '../store/places.store';
import { escapeHtml } from '../domain/html';
import { Pass } from './candidate-query';
import { highlight } from './highlight';
import { dedupeKey, displayText, toSearchPlace } from './place-result.mapper';
import { Ranked, rankDocs } from './ranking';
import { candidateQuery, passesRefiners, planSearch, postalCodeQuery, SearchKind, SearchPlan } from './search-plan';

/**
 * One search = plan (pure) -> strict pass -> typo pass only when the strict one finds nothing
 * -> shared ranking -> dedupe -> map with highlight. The engine behind the port only finds
 * candidates, so SQLite and OpenSearch answer the same.
 */
@Injectable()
export class PlacesSearchService {
  constructor(@Inject(PLACES_STORE) private readonly store: PlacesStore) {}

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

  private async search(kind: SearchKind, dto: PlaceQueryRequest | StreetQueryRequest | MunicipalityQueryRequest | PostalQueryRequest): Promise<Place[]> {
    const plan = planSearch(kind, dto);
    if (plan.tokens.length === 0) return [];
    if (plan.municipalityPostal) {
      const codes = await this.store.candidates(postalCodeQuery(plan, plan.municipalityPostal.digits));
      const ids = codes.map((c) => c.municipality_id).filter((id): id is string => !!id);
      plan.municipalityIds = ids;
      if (!plan.municipalityPostal.strict) plan.rank = { ...plan.rank, preferIds: [...(plan.rank.preferIds ?? []), ...ids] };
    }
    let ranked = await this.pass(plan, 'strict');
    if (ranked.length === 0 && plan.tokens.some((t) => t.kind === 'word' && !t.prefix)) ranked = await this.pass(plan, 'fuzzy');
    const seen = new Set<string>();
    const out: Place[] = [];
    for (const r of ranked) {
      const key = dedupeKey(r.doc);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(toSearchPlace(r.doc, highlight(displayText(r.doc), plan.tokens)));
      if (out.length >= plan.limit) break;
    }
    return out;
  }

  private async pass(plan: SearchPlan, pass: Pass): Promise<Ranked[]> {
    const docs = (await this.store.candidates(candidateQuery(plan, pass))).filter((d) => passesRefiners(plan, d));
    return rankDocs(plan.tokens, docs, { ...plan.rank, fuzzy: pass === 'fuzzy' });
  }

  async reverse(dto: PlaceReverseRequest): Promise<Place[]> {
    const point = dto.lat !== undefined && dto.lng !== undefined ? { lat: dto.lat, lng: dto.lng } : jtskPoint(dto.jtskX, dto.jtskY);
    const hits = await this.store.nearby({
      ...point,
      metres: dto.distinct ?? DEFAULT_DISTINCT_M,
      countries: dto.country?.length ? dto.country : null,
      size: Math.max(dto.limit ?? DEFAULT_LIMIT, 20),
    });
    const seen = new Set<string>();
    const out: Place[] = [];
    for (const h of hits) {
      const key = dedupeKey(h.doc);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(toSearchPlace(h.doc, escapeHtml(displayText(h.doc))));
      if (out.length >= (dto.limit ?? DEFAULT_LIMIT)) break;
    }
    return out;
  }
}

/** Either sign convention; X is the larger axis, so swapped numbers are put right. */
function jtskPoint(x: number | undefined, y: number | undefined): { lat: number; lng: number } {
  if (x === undefined || y === undefined) throw DomainError.missingParameter(x === undefined ? 'jtskX' : 'jtskY');
  const [big, small] = Math.abs(x) >= Math.abs(y) ? [x, y] : [y, x];
  return jtskToWgs84(big, small);
}
