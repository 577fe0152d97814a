import { sqliteTestStore } from '../../search/testing/test-stores';
import { chSearchSuite } from './ch-search.suite';

chSearchSuite('sqlite', ...sqliteTestStore('ch-search'));
