import { sqliteTestStore } from './testing/test-stores';
import { placesSearchContract } from './testing/places-search.contract';
import { placesSearchAroundContract } from './testing/places-search-around.contract';

/** The standalone engine always runs the shared contract: SQLite in a temporary file. */
placesSearchContract('sqlite', ...sqliteTestStore('places-search'));
placesSearchAroundContract('sqlite', ...sqliteTestStore('places-search-around'));
