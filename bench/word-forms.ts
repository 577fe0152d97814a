/**
 * `canonicalWords` on texts it has not seen (each search's candidates bring new street and
 * municipality names): microseconds per text over a country's municipality names, four rounds,
 * each name with the round's number so that every call misses the cache.
 *   node -r ./tools/ts-register.js bench/word-forms.ts <dir with places.sqlite> [country=CZ]
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CountryCode } from '../libs/contracts/src';
import { canonicalWords, isGermanText } from '../libs/places/src/search/doc-tokens';
import { SqlitePlacesStore } from '../libs/places/src/store/sqlite-places.store';

async function main(): Promise<void> {
  const [dir, country = 'CZ'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: word-forms.ts <dir with places.sqlite> [country]');
  const store = new SqlitePlacesStore(join(dir, 'places.sqlite'));
  await store.init();
  const names = (await store.list(country as CountryCode, 'municipality')).map((d) => d.name);
  const german = isGermanText(country as CountryCode);
  for (let round = 1; round <= 4; round++) {
    const t0 = performance.now();
    for (const name of names) canonicalWords(`${name} ${round}`, german);
    console.log(`round ${round}: ${names.length} texts, ${(((performance.now() - t0) / names.length) * 1000).toFixed(2)} µs per text`);
  }
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
