/**
 * Choosing a town in a form's town field (`/municipality`), straight at the engine
 * (PlacesSearchService in this process) over a store that holds a country's catalogue (and
 * addresses, if imported):
 *   node -r ./tools/ts-register.js bench/town-choice.ts sqlite <file.sqlite> [CC] [checkout]
 *   node -r ./tools/ts-register.js bench/town-choice.ts opensearch <index-prefix> [CC] [checkout]
 * `checkout` (default: this one) is the tree whose search code runs, so two trees are measured on
 * the same data. The towns are the country's 100 largest municipalities by the store's own weight
 * (address points; without addresses, postal codes), as a shop's customers are spread; each is
 * typed letter by letter from its second letter. Prints one JSON line: after how many letters the
 * town is first (p50, p90, and how many towns are first from the third letter on), how many are
 * among the first 7 at the third letter, and the ones still not first at their fifth letter.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { MunicipalityQueryRequest, parseRequest, Place } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';

type Svc = { municipality(dto: MunicipalityQueryRequest): Promise<Place[]> };
type Store = { init(): Promise<void>; close(): Promise<void>; list(cc: string, o: 'municipality'): Promise<Array<{ place_id: string; name: string; weight: number }>> };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))]! : NaN;
};

async function main(): Promise<void> {
  const [engine, target, cc = 'CZ', checkout] = process.argv.slice(2, 6);
  const root = resolve(checkout ?? '.');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { PlacesSearchService } = require(`${root}/libs/places/src/search/places-search.service`);
  const { SqlitePlacesStore } = require(`${root}/libs/places/src/store/sqlite-places.store`);
  const { OpenSearchPlacesStore } = require(`${root}/libs/places/src/store/opensearch-places.store`);
  /* eslint-enable @typescript-eslint/no-require-imports */
  const store: Store = engine === 'sqlite'
    ? new SqlitePlacesStore(resolve(target!))
    : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), target);
  await store.init();
  const svc = new PlacesSearchService(store) as Svc;
  const towns = (await store.list(cc, 'municipality')).sort((a, b) => b.weight - a.weight || (a.place_id < b.place_id ? -1 : 1)).slice(0, 100);
  const ask = (query: string) => svc.municipality(parseRequest(MunicipalityQueryRequest, { query, country: cc }));
  const firstAt: number[] = [];
  let firstFromThird = 0;
  let amongSevenAtThird = 0;
  const lateAtFifth: string[] = [];
  for (const t of towns) {
    let first: number | null = null;
    let alwaysFirst = true;
    for (let k = 2; k <= t.name.length; k++) {
      const res = await ask(t.name.slice(0, k));
      const at = res.findIndex((p) => p.place_id === t.place_id);
      if (k === 3 && at >= 0) amongSevenAtThird++;
      if (at === 0 && first === null) first = k;
      if (k >= 3 && at !== 0) alwaysFirst = false;
      if (k === 5 && at !== 0) lateAtFifth.push(`${t.name} (${at < 0 ? 'absent' : at + 1}.)`);
    }
    if (alwaysFirst) firstFromThird++;
    firstAt.push(first ?? t.name.length + 1);
  }
  await store.close();
  console.log(JSON.stringify({ engine, country: cc, checkout: root, towns: towns.length, firstAtLetter: { p50: pct(firstAt, 0.5), p90: pct(firstAt, 0.9) }, firstFromThird, amongSevenAtThird, notFirstAtFifth: lateAtFifth }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
