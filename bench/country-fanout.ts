/**
 * What other countries' indexes cost a search of one country on OpenSearch, and what reading the
 * country's own alias (`<alias>-cz`, country-read-aliases.ts) gives back. A deployment with all
 * six countries imported has six indexes behind the read alias; a CZ search sent there runs on
 * every shard, and with more than one shard in two phases (query, then fetch).
 *
 * On an OpenSearch index of the whole CZ register (`bench/search-import.ts opensearch <prefix>`),
 * this bench puts, beside it, `--countries` (default sk,pl,at,ch,li) indexes of `--docs` (default
 * 50 000) documents each, copied from the register with the country changed (made once, kept for
 * the next run under `fanout-places-<cc>-1`; `--clean` deletes them). Two aliases over the same
 * indexes: `fanout-places` with its country aliases (what a switch leaves) and `fanoutall-places`
 * without (every search through the read alias). The 1 117 typed golden queries (country CZ)
 * through PlacesSearchService on each, query by query, first store alternating, two rounds after
 * a warm-up round; answers compared.
 *   node -r ./tools/ts-register.js bench/country-fanout.ts <register index prefix> [--countries sk,pl] [--docs 50000] [--clean]
 * OPENSEARCH_URL (default http://127.0.0.1:9200) picks the server.
 */
import 'reflect-metadata';
import { CountryCode } from '../libs/contracts/src';
import { createOpenSearchClient } from '../libs/shared/search/src';
import { OpenSearchPlacesStore } from '../libs/places/src/store/opensearch-places.store';
import { aliasIndexes, bulkPlaces, countryAliasName, countryIndexName } from '../libs/places/src/store/opensearch-places.versions';
import { PLACES_INDEX } from '../libs/places/src/store/places.mapping';
import { toStored } from '../libs/places/src/store/opensearch-places.stored';
import { compareCzStores } from './search-latency';

const url = process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200';
const newClient = () => createOpenSearchClient({ url, timeoutMs: 60000 });
const WITH = 'fanout-places';
const WITHOUT = 'fanoutall-places';
const ALL_OTHERS: CountryCode[] = ['SK', 'PL', 'AT', 'CH', 'LI'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const register = args[0];
  if (!register || register.startsWith('--')) throw new Error('usage: country-fanout.ts <register index prefix> [--countries sk,pl] [--docs 50000] [--clean]');
  const client = newClient();
  if (args.includes('--clean')) {
    await client.indices.delete({ index: `${WITH}-*` }).catch(() => undefined);
    await client.indices.deleteAlias({ index: '_all', name: `${WITH}*,${WITHOUT}` } as never).catch(() => undefined);
    console.log('deleted the copies and the aliases');
    return client.close();
  }
  const countries = (opt('--countries') ?? 'sk,pl,at,ch,li').split(',').map((c) => c.toUpperCase() as CountryCode);
  const docsEach = Number(opt('--docs') ?? 50_000);
  const registerIndexes = await aliasIndexes(client, `${register}-places`);
  if (registerIndexes.length !== 1) throw new Error(`${register}-places should point at the register's one index, not ${registerIndexes.join(', ') || 'none'}`);

  // The other countries' indexes: the register's documents, relabelled, made once.
  const source = new OpenSearchPlacesStore(newClient(), register);
  const copies: string[] = [];
  const write = bulkPlaces(client, toStored);
  for (const cc of countries) {
    const index = countryIndexName(WITH, cc, '1');
    copies.push(index);
    if ((await client.indices.exists({ index })).body) continue;
    await client.indices.create({ index, body: { settings: { ...PLACES_INDEX.settings, refresh_interval: '-1' }, mappings: PLACES_INDEX.mappings } as never });
    let n = 0;
    for (const letter of 'abcdefghijklmnoprstuvz') {
      if (n >= docsEach) break;
      const docs = await source.candidates({ objects: ['address', 'street', 'municipality'], countries: null, terms: [{ value: letter, mode: 'prefix' }], contextIds: null, postalPrefix: null, size: Math.min(10_000, docsEach - n) });
      await write(index, docs.map((d) => ({ ...d, country: cc, place_id: `${cc.toLowerCase()}x${d.place_id}` })));
      n += docs.length;
    }
    await client.indices.refresh({ index });
    await client.indices.forcemerge({ index, max_num_segments: 1 });
    console.log(`${index}: ${n} documents`);
  }
  await source.close();
  const all = [registerIndexes[0], ...copies];
  // The aliases as this run's countries need them, whatever an earlier run left.
  const actions: unknown[] = [];
  for (const name of [WITH, WITHOUT, ...['CZ', ...countries, ...ALL_OTHERS].map((cc) => countryAliasName(WITH, cc as CountryCode))]) {
    for (const index of await aliasIndexes(client, name)) actions.push({ remove: { index, alias: name } });
  }
  for (const index of all) actions.push({ add: { index, alias: WITH } }, { add: { index, alias: WITHOUT } });
  actions.push({ add: { index: registerIndexes[0], alias: countryAliasName(WITH, 'CZ') } });
  for (const [i, cc] of countries.entries()) actions.push({ add: { index: copies[i], alias: countryAliasName(WITH, cc) } });
  await client.indices.updateAliases({ body: { actions } as never });

  const withAliases = new OpenSearchPlacesStore(newClient(), 'fanout');
  const throughRead = new OpenSearchPlacesStore(newClient(), 'fanoutall');
  await withAliases.init();
  await throughRead.init();
  const { queries, differ, a: own, b: read, load } = await compareCzStores(withAliases, throughRead);
  console.log(`\n${queries} CZ queries, ${1 + countries.length} indexes behind the read alias (CZ register + ${countries.join(', ')} of ${docsEach} documents each); load ${load}\n`);
  console.log('| read | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|');
  console.log(`| the country's own alias (${countryAliasName(WITH, 'CZ')}: one shard) | ${own.p50} | ${own.p95} | ${own.p99} |`);
  console.log(`| the read alias (${WITHOUT}: ${all.length} shards) | ${read.p50} | ${read.p95} | ${read.p99} |`);
  console.log(`\nread alias / own alias at p50: ${(read.p50 / own.p50).toFixed(2)}x; queries whose answers differ: ${differ}`);
  await withAliases.close();
  await throughRead.close();
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
