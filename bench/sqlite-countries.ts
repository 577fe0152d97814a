/**
 * What a second country in the same SQLite file costs a search of one country (standalone, a
 * deployment that imported several countries). The register's file (`places.sqlite` of a data dir
 * the README's import commands filled with whole CZ) is copied, and `--docs` (default 1 400 000,
 * half the register) of its documents are written into the copy again as another country (`SK`;
 * ids changed), through the store as an import writes them. `--words shared` keeps their words
 * (the worst case: every posting of a CZ word gets a twin); `--words own` (default) changes every
 * word (a `q` appended), so only numbers and postal codes are shared, as between two languages.
 * The 1 117 typed golden queries (country CZ) on the register and on the copy, query by query,
 * first file alternating, two rounds after a warm-up round; answers compared.
 *
 * The file's layout decides the result: schema 3 (full-text tables per country, see
 * sqlite-places.schema.ts) or schema 2 (one table for all countries; a file imported by an older
 * version). The layout of the register's file is printed.
 *   node -r ./tools/ts-register.js bench/sqlite-countries.ts <data dir> [--docs 1400000] [--words own|shared]
 */
import 'reflect-metadata';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { decodeDoc, SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';
import { PlaceDoc } from '../libs/places/src/domain/place.doc';
import { compareCzStores } from './search-latency';

/** Every word of a text with a `q` appended: another language's words, the same numbers. */
const ownWords = (t: string | null) => (t === null ? null : t.replace(/\p{L}+/gu, (w) => `${w}q`));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const dataDir = args[0];
  if (!dataDir || dataDir.startsWith('--')) throw new Error('usage: sqlite-countries.ts <data dir> [--docs 1400000] [--words own|shared]');
  const source = resolve(dataDir, 'places.sqlite');
  const docs = Number(opt('--docs') ?? 1_400_000);
  const words = opt('--words') ?? 'own';
  const raw = new Database(source, { readonly: true });
  const schema = raw.pragma('user_version', { simple: true }) as number;
  console.log(`${source}: schema ${schema} (${schema === 2 ? 'one full-text table per kind for all countries' : 'full-text tables per kind and country'})`);

  const dir = mkdtempSync(join(tmpdir(), 'sqlite-countries-'));
  try {
    const copy = join(dir, 'places.sqlite');
    copyFileSync(source, copy);
    const writer = new SqlitePlacesStore(copy);
    await writer.init();
    const t0 = performance.now();
    let batch: PlaceDoc[] = [];
    let n = 0;
    for (const row of raw.prepare(`SELECT doc FROM places WHERE rid % 2 = 0 LIMIT ?`).iterate(docs) as Iterable<{ doc: string }>) {
      const d = decodeDoc(row.doc);
      const other: PlaceDoc = { ...d, country: 'SK', place_id: `sk_x${d.place_id}` };
      if (words === 'own') Object.assign(other, { name: ownWords(d.name), street: ownWords(d.street), municipality: ownWords(d.municipality), district: ownWords(d.district), county: ownWords(d.county), region: ownWords(d.region) });
      batch.push(other);
      if (batch.length === 5000) {
        await writer.upsert(batch);
        n += batch.length;
        batch = [];
      }
    }
    if (batch.length) await writer.upsert(batch);
    n += batch.length;
    await writer.optimizeSearchIndex();
    await writer.close();
    raw.close();
    console.log(`copy with ${n} more documents as SK (${words} words) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const one = new SqlitePlacesStore(source, 'reader');
    const two = new SqlitePlacesStore(copy, 'reader');
    await one.init();
    await two.init();
    const { queries, differ, a, b, load } = await compareCzStores(one, two);
    console.log(`\n${queries} CZ queries; load ${load}\n`);
    console.log('| file | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|');
    console.log(`| the register (CZ) | ${a.p50} | ${a.p95} | ${a.p99} |`);
    console.log(`| the register + ${n} SK documents (${words} words) | ${b.p50} | ${b.p95} | ${b.p99} |`);
    console.log(`\nwith SK / without at p50: ${(b.p50 / a.p50).toFixed(2)}x; queries whose answers differ: ${differ}`);
    await one.close();
    await two.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
