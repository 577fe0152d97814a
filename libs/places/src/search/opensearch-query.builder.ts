import { F } from '../store/places.mapping';
import { CandidateQuery, nearBox, TermClause } from './candidate-query';
import { FUZZY_MAX_EXPANSIONS, FUZZY_PREFIX_LENGTH } from './fuzzy';
import { typoPrefixRegexps } from './typo-prefix';

function clause(t: TermClause): Record<string, unknown> {
  if (t.mode === 'prefix') return { prefix: { [F.tokens]: { value: t.value } } };
  if (t.mode === 'fuzzyPrefix') {
    const res = typoPrefixRegexps(t.value, t.fuzziness ?? 1).map((value) => ({ regexp: { [F.tokens]: { value, flags: 'NONE' } } }));
    return res.length === 1 ? res[0] : { bool: { should: res, minimum_should_match: 1 } };
  }
  if (t.mode === 'fuzzy') {
    return {
      fuzzy: { [F.tokens]: { value: t.value, fuzziness: t.fuzziness ?? 1, prefix_length: FUZZY_PREFIX_LENGTH, transpositions: true, max_expansions: FUZZY_MAX_EXPANSIONS } },
    };
  }
  return { term: { [F.tokens]: t.value } };
}

/**
 * Pure: the query DSL for one candidate request (the same term semantics as the FTS5 expression).
 * No `_source` filter: the mapping keeps `tokens` out of the stored source already, and a filter
 * at query time parses and rewrites each hit's source (it doubled `took` for 300 hits).
 */
export function buildOpenSearchSearch(q: CandidateQuery): Record<string, unknown> | null {
  if (q.terms.length === 0) return null;
  const filter: unknown[] = [{ terms: { [F.object]: q.objects } }];
  if (q.countries && q.countries.length > 0) filter.push({ terms: { [F.country]: q.countries } });
  if (q.contextIds && q.contextIds.length > 0) {
    filter.push({
      bool: {
        should: [F.regionId, F.countyId, F.municipalityId, F.placeId].map((f) => ({ terms: { [f]: q.contextIds } })),
        minimum_should_match: 1,
      },
    });
  }
  if (q.postalPrefix) filter.push({ prefix: { [F.postalCode]: { value: q.postalPrefix } } });
  if (q.near) {
    // The box SQLite's R*Tree filters by, nearest first (ties by place_id) as SQLite orders them:
    // by arc distance here, there by a flat one from the point's latitude, so the two may swap
    // points whose distances differ by less than about 0.3 % (40 m at 15 km).
    const b = nearBox(q.near);
    filter.push({ geo_bounding_box: { [F.location]: { top_left: { lat: b.maxLat, lon: b.minLng }, bottom_right: { lat: b.minLat, lon: b.maxLng } } } });
    return {
      size: q.size,
      track_total_hits: false,
      query: { bool: { filter: [...q.terms.map(clause), ...filter] } },
      sort: [{ _geo_distance: { [F.location]: { lat: q.near.lat, lon: q.near.lng }, order: 'asc', unit: 'm' } }, { [F.placeId]: 'asc' }],
    };
  }
  // Every clause is a filter and hits come in index order: the shared ranker orders candidates,
  // so no relevance score is needed. On the whole CZ register (bench/opensearch-scoring-ab.ts):
  // the same answers for all 1 117 typed golden queries as with scoring; latency the same within
  // noise once the two are interleaved (an earlier, non-interleaved run showed -12-14 %: order bias).
  return {
    size: q.size,
    track_total_hits: false,
    query: { bool: { filter: [...q.terms.map(clause), ...filter] } },
    sort: ['_doc'],
  };
}

/** Pure: address points within `metres` of a point, nearest first. */
export function buildOpenSearchNearby(lat: number, lng: number, metres: number, countries: string[] | null, size: number): Record<string, unknown> {
  const filter: unknown[] = [{ term: { [F.object]: 'address' } }, { geo_distance: { distance: `${metres}m`, [F.location]: { lat, lon: lng } } }];
  if (countries && countries.length > 0) filter.push({ terms: { [F.country]: countries } });
  return {
    size,
    track_total_hits: false,
    query: { bool: { filter } },
    sort: [{ _geo_distance: { [F.location]: { lat, lon: lng }, order: 'asc', unit: 'm' } }, { [F.placeId]: 'asc' }],
  };
}
