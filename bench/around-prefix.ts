/**
 * Keystrokes with a point, with and without the nearby fallback (search-plan.ts nearFallbackQuery),
 * interleaved in one process over a SQLite file that holds the whole CZ register
 * (`bench/search-import.ts sqlite <file>`):
 *   node -r ./tools/ts-register.js bench/around-prefix.ts <file.sqlite> [golden.jsonl]
 * Each golden /v1/places/query address (N, default 120) is searched whole to find its position,
 * then typed one character at a time (the first KEYS, default 12) with `around_latlng` at that
 * position; every keystroke runs both ways in turn (the order swapped each time), "before" with
 * the store's `nearby` answering nothing. Prints p50/p90/p95/p99 per way, how many keystrokes put
 * a result within 15 km of the point first, and how many used the fallback.
 */
import 'reflect-metadata';
import { parseRequest, PlaceQueryRequest } from '../libs/contracts/src';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { distanceMetres } from '../libs/places/src/search/ranking';
import { loadGolden } from '../libs/places/src/search/testing/golden-queries';

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const FILE = process.argv[2];
const GOLDEN = process.argv[3] ?? '../shared/data/queries/cz-addresses.jsonl';

async function main() {
  if (!FILE) throw new Error('usage: bench/around-prefix.ts <file.sqlite holding the CZ register> [golden.jsonl]');
  const store = new SqlitePlacesStore(FILE, 'reader');
  await store.init();
  let off = false; let nb = 0;
  const wrapped = new Proxy(store, { get(t, k) { if (k === 'nearby') { if (off) return async () => []; nb++; } const v = Reflect.get(t, k, t) as any; return typeof v === 'function' ? v.bind(t) : v; } });
  const svc = new PlacesSearchService(wrapped as any);
  const golden = loadGolden(GOLDEN).filter((g) => g.endpoint === '/v1/places/query').slice(0, Number(process.env.N ?? 120));
  const KEYS = Number(process.env.KEYS ?? 12);
  const ms: Record<string, number[]> = { before: [], after: [] };
  const near: Record<string, number> = { before: 0, after: 0 };
  let keystrokes = 0, withFallback = 0;
  for (const g of golden) {
    const full = await svc.query(parseRequest(PlaceQueryRequest, { query: g.params.query, country: 'CZ' }));
    const at = full[0]?.latlng as { lat: number; lng: number } | undefined;
    if (!at) continue;
    const text = g.params.query;
    for (let i = 1; i <= Math.min(KEYS, text.length); i++) {
      const dto = parseRequest(PlaceQueryRequest, { query: text.slice(0, i), country: 'CZ', around_latlng: `${at.lat},${at.lng}` });
      const order = (keystrokes++ % 2) ? ['before', 'after'] : ['after', 'before'];
      for (const mode of order) {
        off = mode === 'before';
        const n0 = nb;
        const t0 = performance.now();
        const r = await svc.query(dto);
        ms[mode].push(performance.now() - t0);
        if (mode === 'after' && nb > n0) withFallback++;
        const top = r[0]?.latlng as { lat: number; lng: number } | undefined;
        if (top && distanceMetres(at, top) <= 15000) near[mode]++;
      }
    }
  }
  for (const mode of ['before', 'after']) console.log(mode, 'keystrokes', ms[mode].length, 'p50', pct(ms[mode], 0.5).toFixed(2), 'p90', pct(ms[mode], 0.9).toFixed(2), 'p95', pct(ms[mode], 0.95).toFixed(2), 'p99', pct(ms[mode], 0.99).toFixed(2), 'top within 15 km', near[mode]);
  console.log('keystrokes with the nearby fallback', withFallback, 'nearby calls', nb);
  await store.close();
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
