import { sqliteTestStore } from '../search/testing/test-stores';
import { placesValidateContract } from './testing/places-validate.contract';

/** The standalone engine always runs the validation contract: SQLite in a temporary file. */
placesValidateContract('sqlite', ...sqliteTestStore('places-validate'));
