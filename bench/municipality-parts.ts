/**
 * Municipality search by the name of a part (`Krasoňov` -> Humpolec), straight at the engine
 * (PlacesSearchService in this process) over a store that holds the CZ register:
 *   node -r ./tools/ts-register.js bench/municipality-parts.ts sqlite <file.sqlite> [checkout] [psc-list.csv]
 *   node -r ./tools/ts-register.js bench/municipality-parts.ts opensearch <index-prefix> [checkout] [psc-list.csv]
 * `checkout` (default: this one) is the tree whose search code runs, so two trees are measured on
 * the same data. The parts are the PSC list's (`nazcobce`) whose name no municipality has, 300 of
 * them spread over the list; each is typed letter by letter from its fourth. Prints one JSON line:
 * how many parts have their municipality among the first 7 answers (typed whole, and the keystroke
 * it first appears), and the latency per keystroke (p50/p95/p99), all keystrokes and those from the
 * sixth letter on (where the part path may run).
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MunicipalityQueryRequest, parseRequest, Place } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';

type Svc = { municipality(dto: MunicipalityQueryRequest): Promise<Place[]> };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? +s[Math.min(s.length - 1, Math.floor(s.length * p))]!.toFixed(2) : NaN;
};

async function main(): Promise<void> {
  const [engine, target, checkout, psc] = process.argv.slice(2, 6);
  const root = resolve(checkout ?? '.');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { PlacesSearchService } = require(`${root}/libs/places/src/search/places-search.service`);
  const { SqlitePlacesStore } = require(`${root}/libs/places/src/store/sqlite-places.store`);
  const { OpenSearchPlacesStore } = require(`${root}/libs/places/src/store/opensearch-places.store`);
  /* eslint-enable @typescript-eslint/no-require-imports */
  const store = engine === 'sqlite'
    ? new SqlitePlacesStore(resolve(target!))
    : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), target);
  await store.init();
  const svc = new PlacesSearchService(store) as Svc;
  const rows = readFileSync(resolve(psc ?? '../shared/data/cz/psc-list.csv'), 'utf8').split('\n').slice(1).map((l) => l.split(',')).filter((c) => c.length > 4);
  const towns = new Set(rows.map((c) => c[4]!.replace(/"/g, '')));
  const parts = new Map<string, string>();
  for (const c of rows) {
    const [part, town] = [c[1]!.replace(/"/g, ''), c[4]!.replace(/"/g, '')];
    if (!towns.has(part) && !parts.has(part)) parts.set(part, town);
  }
  const all = [...parts];
  const picked = Array.from({ length: Math.min(300, all.length) }, (_, i) => all[Math.floor((i * all.length) / Math.min(300, all.length))]!);
  const ask = (query: string) => svc.municipality(parseRequest(MunicipalityQueryRequest, { query, country: 'CZ' }));
  for (const [part] of picked.slice(0, 20)) await ask(part);
  const ms: number[] = [];
  const ms6: number[] = [];
  let whole = 0;
  const firstAt: number[] = [];
  const missed: string[] = [];
  for (const [part, town] of picked) {
    let seen: number | null = null;
    for (let k = 4; k <= part.length; k++) {
      const t0 = process.hrtime.bigint();
      const res = await ask(part.slice(0, k));
      const took = Number(process.hrtime.bigint() - t0) / 1e6;
      ms.push(took);
      if (k >= 6) ms6.push(took);
      const hit = res.slice(0, 7).some((p) => p.municipality === town);
      if (hit && seen === null) seen = k;
      if (k === part.length) {
        if (hit) whole++;
        else if (missed.length < 10) missed.push(`${part} (${town})`);
      }
    }
    if (seen !== null) firstAt.push(seen);
  }
  console.log(JSON.stringify({
    engine, checkout: root, parts: picked.length, ofParts: all.length,
    found: { whole, firstAtLetter: { p50: pct(firstAt, 0.5), p90: pct(firstAt, 0.9) }, missed },
    keystrokeMs: { all: { p50: pct(ms, 0.5), p95: pct(ms, 0.95), p99: pct(ms, 0.99), n: ms.length }, fromSixth: { p50: pct(ms6, 0.5), p95: pct(ms6, 0.95), p99: pct(ms6, 0.99), n: ms6.length } },
  }));
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
