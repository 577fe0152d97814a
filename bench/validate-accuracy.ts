/**
 * places.validate on the whole CZ register: a few thousand typed addresses generated from the
 * register's own rows (exact, wrong postal code, misspelt municipality, missing orientation
 * number, a number the street does not have), the share answered as the register implies per
 * kind, and latency p50/p95. The floor, measured in the same run on the same cases: one plain
 * address search (`places.query` with the typed street, number and municipality), the least a
 * validation could cost, since it is built on that search. Straight at the services (no HTTP):
 *   node -r ./tools/ts-register.js bench/search-import.ts sqlite /tmp/cz.sqlite      # once
 *   node -r ./tools/ts-register.js bench/validate-accuracy.ts /tmp/cz.sqlite [share=0.0012] [zip] [psc-list]
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseRequest, PlaceQueryRequest, PlaceValidateRequest } from '../libs/contracts/src';
import { ruianPlaceDocs } from '../libs/places/src/importers/address-import';
import { PlacesSearchService } from '../libs/places/src/search/places-search.service';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlacesValidateService } from '../libs/places/src/validate/places-validate.service';
import { CASE_KINDS, CaseKind, isRightAnswer, ValidateCaseGenerator } from '../libs/places/src/validate/testing/validate-cases';
import { teeAddresses } from '../libs/places/src/validate/testing/validate-run';

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

async function main(): Promise<void> {
  const [file, shareText, zipArg, pscArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: validate-accuracy.ts <places.sqlite> [share] [zip] [psc-list]');
  const zip = resolve(zipArg ?? '../shared/data/cz/20231231_OB_ADR_csv.zip');
  const pscList = resolve(pscArg ?? '../shared/data/cz/psc-list.csv');
  const gen = new ValidateCaseGenerator(Number(shareText ?? '0.0012'));
  const t0 = Date.now();
  // The cases come from the register file itself (one municipality at a time); the store was imported from the same file.
  for await (const batch of teeAddresses(ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList }, batchSize: 5000 }), gen)) void batch;
  gen.finish();
  process.stderr.write(`${gen.cases.length} cases generated in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);

  const store = new SqlitePlacesStore(resolve(file));
  await store.init();
  const search = new PlacesSearchService(store);
  const svc = new PlacesValidateService(search);
  const rows = new Map<CaseKind | 'all', { n: number; right: number; found: number; ms: number[]; floor: number[] }>();
  for (const k of [...CASE_KINDS, 'all' as const]) rows.set(k, { n: 0, right: 0, found: 0, ms: [], floor: [] });
  // Warm the page cache and the JIT on a few cases before timing.
  for (const c of gen.cases.slice(0, 50)) await svc.validate(parseRequest(PlaceValidateRequest, c.params));
  const wrong: string[] = [];
  for (const c of gen.cases) {
    const f0 = process.hrtime.bigint();
    await search.query(parseRequest(PlaceQueryRequest, { query: `${c.params.query} `, municipality: c.params.municipality, country: c.params.country }));
    const floor = Number(process.hrtime.bigint() - f0) / 1e6;
    const v0 = process.hrtime.bigint();
    const v = await svc.validate(parseRequest(PlaceValidateRequest, c.params));
    const ms = Number(process.hrtime.bigint() - v0) / 1e6;
    const right = isRightAnswer(c, v);
    // The address itself in the answer (as the match or among the candidates), whatever the verdict.
    const found = !c.expect.place_id || v.place?.place_id === c.expect.place_id || v.candidates.some((p) => p.place_id === c.expect.place_id);
    if (!right && wrong.length < 15) wrong.push(`${c.kind} ${JSON.stringify(c.params)} expected ${c.expect.verdict} got ${v.verdict} ${v.place?.formatted_address ?? v.candidates.map((p) => p.formatted_address).join(' | ')} [${v.corrections.map((x) => x.field)}]`);
    for (const k of [c.kind, 'all' as const]) {
      const r = rows.get(k)!;
      r.n++;
      if (right) r.right++;
      if (found) r.found++;
      r.ms.push(ms);
      r.floor.push(floor);
    }
  }
  await store.close();
  console.log('| kind | cases | correct verdicts | address in the answer | validate p50 | p95 | floor (one search) p50 | p95 | p95 ratio |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [k, r] of rows) {
    const ms = [...r.ms].sort((a, b) => a - b);
    const fl = [...r.floor].sort((a, b) => a - b);
    console.log(`| ${k} | ${r.n} | ${((100 * r.right) / r.n).toFixed(1)} % | ${((100 * r.found) / r.n).toFixed(1)} % | ${pct(ms, 50).toFixed(1)} ms | ${pct(ms, 95).toFixed(1)} ms | ${pct(fl, 50).toFixed(1)} ms | ${pct(fl, 95).toFixed(1)} ms | ${(pct(ms, 95) / pct(fl, 95)).toFixed(2)} |`);
  }
  for (const w of wrong) console.log(`wrong: ${w}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
