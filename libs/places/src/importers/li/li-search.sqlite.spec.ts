import { sqliteTestStore } from '../../search/testing/test-stores';
import { liSearchSuite } from './li-search.suite';

liSearchSuite('sqlite', ...sqliteTestStore('li-search'));
