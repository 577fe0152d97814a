import { readFileSync } from 'node:fs';
import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest } from '@lookup/contracts';
import { PlacesSearchService } from '../places-search.service';
import { municipalityCodesNamed, ruianSubset, RuianSubset } from '../../importers/cz/ruian-subset';

/** One line of ../shared/data/queries/cz-addresses.jsonl. */
export interface GoldenQuery {
  id: string;
  type: string;
  endpoint: string;
  params: Record<string, string>;
  expect: Record<string, string>;
  rank: number;
}

export interface GoldenOutcome {
  query: GoldenQuery;
  /** 1-based position of the first result carrying every expected field, or null. */
  position: number | null;
  ms: number;
  top: string[];
}

export interface GoldenSummary {
  total: number;
  hits: number;
  share: number;
  /** Queries whose expected place came first. */
  top1: number;
  byType: Record<string, { total: number; hits: number; share: number }>;
  misses: GoldenOutcome[];
  p50ms: number;
  p95ms: number;
}

export function loadGolden(path: string): GoldenQuery[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenQuery);
}

/**
 * The part of the real CZ register the golden tests import (the whole register is the
 * benchmarks' job: bench/search-golden.ts): every municipality a golden query expects, with all
 * its namesakes, and every `step`-th other one, about a seventh of the addresses at step 8.
 */
export const GOLDEN_SUBSET_STEP = 8;

/** The harder set's street (village) sample on that part: as many queries as the whole register gives at 50 (40). */
export const GOLDEN_SUBSET_SAMPLE = { streets: 7, villages: 6 } as const;

export function goldenRegisterSubset(zip: string, pscList: string, golden: GoldenQuery[], dir: string): Promise<RuianSubset> {
  const names = golden.map((q) => q.expect['municipality']).filter((n): n is string => !!n);
  return ruianSubset(zip, dir, { step: GOLDEN_SUBSET_STEP, codes: municipalityCodesNamed(pscList, names) });
}

/** Postal codes are shown as written locally (`747 41`); the golden files give the digits. */
const SPACES_IGNORED = new Set(['postal_code']);

export function matches(p: Place, expect: Record<string, string>): boolean {
  return Object.entries(expect).every(([k, v]) => {
    const got = String((p as unknown as Record<string, unknown>)[k] ?? '');
    return SPACES_IGNORED.has(k) ? got.replace(/\s/g, '') === v.replace(/\s/g, '') : got === v;
  });
}

async function ask(svc: PlacesSearchService, q: GoldenQuery): Promise<Place[]> {
  if (q.endpoint === '/v1/places/query') return svc.query(parseRequest(PlaceQueryRequest, q.params));
  if (q.endpoint === '/v1/places/municipality') return svc.municipality(parseRequest(MunicipalityQueryRequest, q.params));
  if (q.endpoint === '/v1/places/reverse') return svc.reverse(parseRequest(PlaceReverseRequest, q.params));
  throw new Error(`golden query ${q.id}: endpoint ${q.endpoint} is not covered`);
}

export async function runGolden(svc: PlacesSearchService, queries: GoldenQuery[]): Promise<GoldenSummary> {
  const outcomes: GoldenOutcome[] = [];
  for (const q of queries) {
    const t0 = process.hrtime.bigint();
    const res = await ask(svc, q);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const i = res.findIndex((p) => matches(p, q.expect));
    outcomes.push({ query: q, position: i >= 0 ? i + 1 : null, ms, top: res.slice(0, 3).map((p) => p.formatted_address ?? p.place_id) });
  }
  const byType: GoldenSummary['byType'] = {};
  for (const o of outcomes) {
    const t = (byType[o.query.type] ??= { total: 0, hits: 0, share: 0 });
    t.total++;
    if (o.position !== null && o.position <= o.query.rank) t.hits++;
  }
  for (const t of Object.values(byType)) t.share = t.hits / t.total;
  const hits = Object.values(byType).reduce((s, t) => s + t.hits, 0);
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    total: outcomes.length,
    hits,
    top1: outcomes.filter((o) => o.position === 1).length,
    share: hits / outcomes.length,
    byType,
    misses: outcomes.filter((o) => o.position === null || o.position > o.query.rank),
    p50ms: ms[Math.floor(ms.length * 0.5)] ?? 0,
    p95ms: ms[Math.floor(ms.length * 0.95)] ?? 0,
  };
}

export function formatGolden(engine: string, s: GoldenSummary): string {
  const lines = [`golden CZ queries on ${engine}: ${s.hits}/${s.total} = ${(s.share * 100).toFixed(1)} % within rank, ${s.top1} first (p50 ${s.p50ms.toFixed(1)} ms, p95 ${s.p95ms.toFixed(1)} ms, one at a time)`];
  for (const [type, t] of Object.entries(s.byType)) lines.push(`  ${type.padEnd(24)} ${t.hits}/${t.total} = ${(t.share * 100).toFixed(1)} %`);
  for (const m of s.misses.slice(0, 20)) lines.push(`  miss ${m.query.id}: ${JSON.stringify(m.query.params)} -> position ${m.position ?? '-'}; top: ${m.top.join(' | ')}`);
  return lines.join('\n');
}
