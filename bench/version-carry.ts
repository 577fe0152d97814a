/**
 * How fast a version build copies the live documents it keeps (a catalogue import carries every
 * address of the country), OpenSearch. Rounds alternate two ways of copying, each for the same
 * time from the start of the country's documents, and print the documents copied per second:
 *   sequential: a page read, then written, then the next page read (the build before 2026-11-28);
 *   pipelined:  the next page read while the last is written (one bulk in flight; the build now).
 *   node -r ./tools/ts-register.js bench/version-carry.ts <index prefix with a country's places> [country=CZ] [seconds=60] [rounds=2]
 * Each round writes into an index of its own, deleted after it; the live data is only read.
 */
import { loadavg } from 'node:os';
import { CountryCode } from '../libs/contracts/src';
import { createOpenSearchClient, NO_REPLICAS } from '../libs/shared/search/src';
import { serverUrl } from '../libs/shared/testing/src/servers';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { aliasIndexes, bulkPlaces, scan, writeIndexFor } from '../libs/places/src/store/opensearch-places.versions';
import { toStored } from '../libs/places/src/store/opensearch-places.stored';
import { PLACES_INDEX } from '../libs/places/src/store/places.mapping';

class Enough extends Error {}

async function main(): Promise<void> {
  const [prefix, countryArg = 'CZ', secondsArg = '60', roundsArg = '2'] = process.argv.slice(2);
  if (!prefix) throw new Error('usage: version-carry.ts <index prefix> [country] [seconds] [rounds]');
  const country = countryArg as CountryCode;
  const seconds = Number(secondsArg);
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 120_000 });
  const alias = `${prefix}-places`;
  const store = new OpenSearchPlacesStore(client, prefix);
  const from = writeIndexFor(alias, await aliasIndexes(client, alias), country);
  const query = { bool: { filter: [{ term: { country } }], must_not: [{ terms: { object: ['region', 'county', 'municipality'] } }] } };
  const bulk = bulkPlaces(client, toStored);
  console.log(`copying ${country} from ${from} (${(await store.liveVersion(country))?.docs} documents), ${seconds} s a round, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const sequential = async (to: string, stop: (n: number) => void) => {
    let n = 0;
    for await (const docs of scan(client, from, query)) {
      await bulk(to, docs);
      stop((n += docs.length));
    }
  };
  const pipelined = async (to: string, stop: (n: number) => void) => {
    // What OpenSearchPlacesVersionBuild.begin does (pipelinedBulk over the scan's pages).
    const { pipelinedBulk } = await import('../libs/shared/search/src');
    await pipelinedBulk(scan(client, from, query), (docs) => bulk(to, docs), 5000, stop);
  };
  const rows: string[] = [];
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const [name, copy] of [['sequential', sequential], ['pipelined', pipelined]] as const) {
      const to = `${prefix}-carrybench-${name}-${r}`;
      await client.indices.create({ index: to, body: { settings: { ...PLACES_INDEX.settings, refresh_interval: '-1', ...NO_REPLICAS }, mappings: PLACES_INDEX.mappings } as never });
      const t0 = Date.now();
      let copied = 0;
      try {
        await copy(to, (n) => {
          copied = n;
          if (Date.now() - t0 >= seconds * 1000) throw new Enough();
        });
      } catch (err) {
        if (!(err instanceof Enough)) throw err;
      }
      const s = (Date.now() - t0) / 1000;
      rows.push(`| ${r + 1} | ${name} | ${copied} | ${s.toFixed(1)} | ${Math.round(copied / s)} | ${loadavg()[0].toFixed(1)} |`);
      console.log(rows[rows.length - 1]);
      await client.indices.delete({ index: to }).catch(() => undefined);
    }
  }
  console.log('\n| round | copy | documents | s | documents/s | load |\n|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  await client.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
