import { sqliteTestStore } from '../../search/testing/test-stores';
import { plSearchSuite } from './pl-search.suite';

/** The standalone engine: the PL fixtures imported into SQLite in a temporary file. */
plSearchSuite('sqlite', ...sqliteTestStore('pl-search'));
