import { sqliteTestStore } from '../../search/testing/test-stores';
import { atSearchContract } from './at-search.contract';

/** The standalone engine: SQLite in a temporary file. */
atSearchContract('sqlite', ...sqliteTestStore('at-search'));
