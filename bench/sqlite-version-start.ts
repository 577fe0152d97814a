/**
 * What a new version of a small country costs in SQLite beside a whole register (standalone: a
 * deployment that imported whole CZ, then imports LI or SK). The file of `<data dir>`
 * (`places.sqlite`, filled by the README's import commands) gets new versions of `--country`
 * (default LI, which must be live there) holding that country's own live documents again, so the
 * file's content is the same after every round. Each round is timed per step, starting the
 * version both ways in turn: `copy` (a page copy of the live file, the country's rows deleted;
 * what `beginVersion` does when the other countries' rows are many) and `rows` (the other
 * countries' rows carried over one by one, as every build did before). The machine's load is
 * printed with each round.
 *   node -r ./tools/ts-register.js bench/sqlite-version-start.ts <data dir> [--country LI] [--rounds copy,rows,copy]
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CountryCode } from '@lookup/contracts';
import { decodeDoc, SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) throw new Error('usage: sqlite-version-start.ts <data dir> [--country LI] [--rounds copy,rows,copy]');
  const opt = (name: string, def: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1]! : def;
  };
  const country = opt('country', 'LI') as CountryCode;
  const rounds = opt('rounds', 'copy,rows,copy').split(',') as Array<'copy' | 'rows'>;
  const file = join(resolve(dir), 'places.sqlite');

  const read = new Database(file, { readonly: true });
  const docs = (read.prepare('SELECT doc FROM places WHERE country = ? ORDER BY rid').pluck().all(country) as string[]).map(decodeDoc);
  const total = read.prepare('SELECT count(*) FROM places').pluck().get() as number;
  read.close();
  if (!docs.length) throw new Error(`${country} has no documents in ${file}`);
  console.log(`${file}: ${total} documents, ${country} ${docs.length}`);

  const store = new SqlitePlacesStore(file);
  await store.init();
  for (const way of rounds) {
    store.copyLiveAbove = way === 'copy' ? 0 : Number.POSITIVE_INFINITY;
    const load = loadavg()[0]!.toFixed(2);
    const t0 = Date.now();
    const build = await store.beginVersion({ country, replace: 'all' });
    const t1 = Date.now();
    await build.load(
      (async function* () {
        yield docs;
      })(),
    );
    await build.seal();
    const t2 = Date.now();
    const count = await build.count();
    await build.commit();
    const t3 = Date.now();
    if (count !== docs.length || store.lastBuildStart !== way) throw new Error(`${way}: ${count} documents of ${docs.length}, started as ${store.lastBuildStart}`);
    console.log(`${way.padEnd(4)}  load ${load}  start ${((t1 - t0) / 1000).toFixed(1)} s  load+seal ${((t2 - t1) / 1000).toFixed(1)} s  commit ${((t3 - t2) / 1000).toFixed(1)} s  total ${((t3 - t0) / 1000).toFixed(1)} s`);
  }
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
