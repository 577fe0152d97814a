import { sqliteTestStore } from './testing/test-stores';
import { placesSearchContract } from './testing/places-search.contract';

/** The standalone engine always runs the shared contract: SQLite in a temporary file. */
placesSearchContract('sqlite', ...sqliteTestStore('places-search'));
