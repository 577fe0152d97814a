import { sqliteTestStore } from './testing/test-stores';
import { placesSearchContract } from './testing/places-search.contract';
import { placesSearchAroundContract, placesSearchAroundPrefixContract } from './testing/places-search-around.contract';

/** The standalone engine always runs the shared contract: SQLite in a temporary file. */
placesSearchContract('sqlite', ...sqliteTestStore('places-search'));
placesSearchAroundContract('sqlite', ...sqliteTestStore('places-search-around'));
// The store reads no text matches near the point past `nearScan` (NEAR_SCAN, 20 000 on a whole register): here past 100.
const [makePrefixStore, disposePrefixStore] = sqliteTestStore('places-search-around-prefix');
placesSearchAroundPrefixContract('sqlite', async () => Object.assign(await makePrefixStore(), { nearScan: 100 }), disposePrefixStore);
