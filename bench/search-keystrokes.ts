/**
 * Keystroke replay and the no-typo latency A/B, straight at the engine (PlacesSearchService in
 * this process), over an engine that already holds the CZ register (see search-import.ts).
 *   node -r ./tools/ts-register.js bench/search-keystrokes.ts sqlite <file.sqlite> [checkout]
 *   node -r ./tools/ts-register.js bench/search-keystrokes.ts opensearch <index-prefix> [checkout]
 * `checkout` (default: this one) is the tree whose search code runs, e.g. /work/main, so main
 * and this branch are measured in the same run on the same data without editing main.
 * Replay: every golden /v1/places/query address typed one character at a time; the keystroke
 * at which the expected address is first in the top 7 and first at the top (median, p90), and
 * the latency per keystroke. A/B: the golden queries as written (no typos) at concurrency 1
 * and 8, p50/p95. MODE=ab runs only the A/B, MODE=replay only the replay. AB_WITH=<checkout>
 * runs the A/B interleaved with a second tree in the same process (slices of 40 queries in
 * turn, the order swapped each round), so load from outside falls on both alike.
 * Empty keystrokes (MODE=empty, or all): every golden address typed to its end, how many
 * keystrokes answer nothing at all (the suggestions a form shows vanish while typing).
 * Lost while typing (MODE=lost, or all): each golden address written out as its answer writes it,
 * typed on from the end of its house number, with the comma and without it (`Alšova 208 378 06
 * ...`): the keystrokes whose first 7 places lack it, and how many addresses lose it at all. Also
 * `post office`: the addresses whose postal code's document names another town (the post office's,
 * `Sobětuchy 45, 537 01 Chrudim`), written with that town after the code, and `post office, no
 * code`: the same with the town and no code (`Sobětuchy 45, Chrudim`).
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseRequest, Place, PlaceQueryRequest } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { loadGolden, matches } from '../libs/places/src/search/testing/golden-queries';

type Svc = { query(dto: PlaceQueryRequest): Promise<Place[]> };
type Store = { get(placeId: string): Promise<{ municipality: string | null } | null> };

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN;
}

function fits(p: Place, expect: Record<string, string>): boolean {
  return matches(p, expect);
}
async function timed(svc: Svc, query: string): Promise<{ ms: number; res: Place[] }> {
  const t0 = process.hrtime.bigint();
  const res = await svc.query(parseRequest(PlaceQueryRequest, { query, country: 'CZ' }));
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, res };
}

async function atConcurrency(svc: Svc, queries: string[], workers: number): Promise<number[]> {
  const ms: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: workers }, async () => {
    while (next < queries.length) ms.push((await timed(svc, queries[next++])).ms);
  }));
  return ms;
}

async function open(engine: string, target: string, root: string): Promise<{ svc: Svc; store: Store; close: () => Promise<void> }> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { PlacesSearchService } = require(`${root}/libs/places/src/search/places-search.service`);
  const { SqlitePlacesStore } = require(`${root}/libs/places/src/store/sqlite-places.store`);
  const { OpenSearchPlacesStore } = require(`${root}/libs/places/src/store/opensearch-places.store`);
  /* eslint-enable @typescript-eslint/no-require-imports */
  const store = engine === 'sqlite'
    ? new SqlitePlacesStore(resolve(target))
    : new OpenSearchPlacesStore(createOpenSearchClient({ url: process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200', timeoutMs: 30000 }), target);
  await store.init();
  return { svc: new PlacesSearchService(store) as Svc, store, close: () => store.close() };
}

/** Both trees on the same queries, slice by slice in turn: p50/p95 per tree at each concurrency. */
async function interleaved(a: Svc, b: Svc, texts: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const c of [1, 8]) {
    const ms: [number[], number[]] = [[], []];
    const all = [...texts, ...texts, ...texts];
    for (let i = 0, round = 0; i < all.length; i += 40, round++) {
      const slice = all.slice(i, i + 40);
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const k of order) ms[k].push(...(await atConcurrency(k === 0 ? a : b, slice, c)));
    }
    out[`c${c}`] = ms.map((m) => ({ p50: +pct(m, 0.5).toFixed(2), p95: +pct(m, 0.95).toFixed(2) }));
  }
  return out;
}

async function main(): Promise<void> {
  const [engine, target, checkout] = process.argv.slice(2, 5);
  const root = resolve(checkout ?? '.');
  const { svc, store, close } = await open(engine, target, root);
  const golden = loadGolden(resolve('../shared/data/queries/cz-addresses.jsonl')).filter((q) => q.endpoint === '/v1/places/query');
  const texts = golden.map((q) => q.params['query']);
  const mode = process.env['MODE'] ?? 'all';
  const out: Record<string, unknown> = { engine, checkout: root, queries: golden.length };
  await atConcurrency(svc, texts.slice(0, 40), 1);
  const other = process.env['AB_WITH'];
  if (other) {
    const b = await open(engine, target, resolve(other));
    await atConcurrency(b.svc, texts.slice(0, 40), 1);
    console.log(JSON.stringify({ engine, trees: [root, resolve(other)], ...(await interleaved(svc, b.svc, texts)) }));
    await b.close();
    await close();
    return;
  }
  if (mode === 'all' || mode === 'ab') {
    for (const c of [1, 8]) {
      const ms = await atConcurrency(svc, [...texts, ...texts], c);
      out[`c${c}`] = { p50: +pct(ms, 0.5).toFixed(2), p95: +pct(ms, 0.95).toFixed(2) };
    }
  }
  if (mode === 'all' || mode === 'replay') {
    const top7: number[] = [];
    const top1: number[] = [];
    const perKey: number[] = [];
    let never = 0;
    for (const q of golden) {
      const text = q.params['query'];
      let in7: number | null = null;
      let at1: number | null = null;
      for (let k = 1; k <= text.length && at1 === null; k++) {
        const { ms, res } = await timed(svc, text.slice(0, k));
        perKey.push(ms);
        const i = res.slice(0, 7).findIndex((p) => fits(p, q.expect));
        if (i >= 0 && in7 === null) in7 = k;
        if (i === 0) at1 = k;
      }
      if (in7 === null) never++;
      else top7.push(in7);
      if (at1 !== null) top1.push(at1);
    }
    out['replay'] = {
      top7: { median: pct(top7, 0.5), p90: pct(top7, 0.9), never },
      top1: { median: pct(top1, 0.5), p90: pct(top1, 0.9), never: golden.length - top1.length },
      keystrokeMs: { p50: +pct(perKey, 0.5).toFixed(2), p95: +pct(perKey, 0.95).toFixed(2), p99: +pct(perKey, 0.99).toFixed(2), n: perKey.length },
      medianLength: pct(texts.map((t) => t.length), 0.5),
    };
  }
  if (mode === 'all' || mode === 'empty') {
    // Every golden address typed to its end: keystrokes whose answer is empty (the list a form shows vanishes).
    const empty: string[] = [];
    let keys = 0;
    for (const text of texts) {
      for (let k = 1; k <= text.length; k++, keys++) if ((await timed(svc, text.slice(0, k))).res.length === 0) empty.push(text.slice(0, k));
    }
    out['emptyKeystrokes'] = { empty: empty.length, of: keys, first: empty.slice(0, 10) };
  }
  if (mode === 'all' || mode === 'lost') {
    // The golden addresses written out as the answer writes them (`Alšova 208, 378 06 Suchdol nad Lužnicí`), typed on from the
    // house number's end with and without the comma: keystrokes whose answer (7 places) lacks the address, and addresses losing it.
    const lost: Record<string, { keys: number; lost: number; addresses: number; first: string[] }> = {};
    const forms = ['comma', 'no comma', 'post office', 'post office, no code'] as const;
    for (const form of forms) lost[form] = { keys: 0, lost: 0, addresses: 0, first: [] };
    for (const q of golden) {
      const place = (await timed(svc, q.params['query'])).res.find((p) => fits(p, q.expect));
      const written = place?.formatted_address;
      if (!place || !written || !written.includes(', ')) continue;
      const code = place.postal_code ? await store.get(`${place.country.toLowerCase()}_p${place.postal_code.replace(/\D/g, '')}`) : null;
      const office = code?.municipality && code.municipality !== place.municipality ? code.municipality : null;
      for (const form of forms) {
        if (form.startsWith('post office') && !office) continue;
        const street = written.slice(0, written.indexOf(', '));
        const text = form === 'comma' ? written : form === 'no comma' ? written.replace(', ', ' ') : form === 'post office' ? `${street}, ${place.postal_code} ${office}` : `${street}, ${office}`;
        const l = lost[form]!;
        let missed = false;
        for (let k = written.indexOf(', ') + 1; k <= text.length; k++) {
          l.keys++;
          if ((await timed(svc, text.slice(0, k))).res.slice(0, 7).some((p) => p.place_id === place.place_id)) continue;
          l.lost++;
          missed = true;
          if (l.first.length < 10) l.first.push(text.slice(0, k));
        }
        if (missed) l.addresses++;
      }
    }
    out['lostWhileTyping'] = lost;
  }
  console.log(JSON.stringify(out));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
