import { waitFor } from '@lookup/shared/testing';
import { emptyDoc, PlaceDoc } from '../../domain/place.doc';
import { PlacesStore } from '../../store/places.store';
import { CatalogueService } from '../catalogue.service';

/** Two stores on the same data: the one a server reads through, and another process's writer. */
export interface CacheStores {
  reader: PlacesStore;
  writer: PlacesStore;
  dispose(): Promise<void>;
}

function region(code: string, name: string): PlaceDoc {
  return emptyDoc('CZ', 'region', `cz_r${code}`, name);
}
function county(code: string, name: string): PlaceDoc {
  return { ...emptyDoc('CZ', 'county', `cz_c${code}`, name), region_id: 'cz_r1', region: 'Moravskoslezský' };
}
function municipality(code: string, name: string): PlaceDoc {
  return { ...emptyDoc('CZ', 'municipality', `cz_m${code}`, name), region_id: 'cz_r1', region: 'Moravskoslezský', county_id: 'cz_c1', county: 'Opava', lat: 49.9, lng: 17.9, weight: 10 };
}
const CATALOGUE = [region('1', 'Moravskoslezský'), region('2', 'Zlínský'), county('1', 'Opava'), municipality('1', 'Opava'), municipality('2', 'Bludov')];
const names = (items: Array<{ name?: string; municipality?: string | null }>) => items.map((i) => i.name ?? i.municipality);

/**
 * The catalogue lists are kept in memory under the store's data stamp (catalogue.service.ts):
 * a repeated list is not read again, and every kind of change, through the same store or by
 * another process, shows in the next answer. Run per engine.
 */
export function catalogueCacheContract(engine: string, open: () => Promise<CacheStores>): void {
  describe(`catalogue lists kept under the data stamp (${engine})`, () => {
    let stores: CacheStores;
    let service: CatalogueService;
    let reads: string[];

    beforeEach(async () => {
      stores = await open();
      await stores.writer.replaceCatalogue('CZ', CATALOGUE);
      service = new CatalogueService(stores.reader);
      reads = [];
      const list = stores.reader.list.bind(stores.reader);
      stores.reader.list = (country, object) => (reads.push(`${country}:${object}`), list(country, object));
    });
    afterEach(() => stores.dispose());

    it('reads a list once and answers it again from memory, frozen', async () => {
      const first = await service.municipalities('CZ');
      expect(names(first)).toEqual(['Bludov', 'Opava']);
      const second = await service.municipalities('CZ');
      expect(second).toEqual(first);
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský']);
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský']);
      expect(reads).toEqual(['CZ:municipality', 'CZ:region']);
      expect(Object.isFrozen(second) && Object.isFrozen(second[0])).toBe(true);
    });

    it("shows another process's upsert and removal in the next answer", async () => {
      expect(names(await service.municipalities('CZ'))).toEqual(['Bludov', 'Opava']);
      await stores.writer.upsert([municipality('3', 'Hradec nad Moravicí')]);
      expect(names(await service.municipalities('CZ'))).toEqual(['Bludov', 'Hradec nad Moravicí', 'Opava']);
      await stores.writer.remove(['cz_m2']);
      expect(names(await service.municipalities('CZ'))).toEqual(['Hradec nad Moravicí', 'Opava']);
      // A change to another kind also reads this one again (one stamp for all lists), with the same answer.
      await stores.writer.upsert([county('2', 'Bruntál')]);
      expect(names(await service.counties('CZ'))).toEqual(['Bruntál', 'Opava']);
      expect(names(await service.municipalities('CZ'))).toEqual(['Hradec nad Moravicí', 'Opava']);
      expect(reads.filter((r) => r === 'CZ:municipality')).toHaveLength(4);
    });

    it('answers from the store when the stamp cannot be read, and keeps lists again once it can', async () => {
      const dataStamp = stores.reader.dataStamp.bind(stores.reader);
      let failing = true;
      stores.reader.dataStamp = () => (failing ? Promise.reject(new Error('node gone')) : dataStamp());
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský']);
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský']);
      expect(reads).toEqual(['CZ:region', 'CZ:region']);
      failing = false;
      await service.regions('CZ');
      await service.regions('CZ');
      expect(reads).toEqual(['CZ:region', 'CZ:region', 'CZ:region']);
    });

    it('shows a change written through the same store', async () => {
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský']);
      await stores.reader.upsert([{ ...region('2', 'Zlínský kraj') }]);
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský', 'Zlínský kraj']);
    });

    it('shows a new version switched in by another process', async () => {
      expect(names(await service.municipalities('CZ'))).toEqual(['Bludov', 'Opava']);
      const build = await stores.writer.beginVersion({ country: 'CZ', replace: 'all' });
      async function* batches() {
        yield [region('1', 'Moravskoslezský'), county('1', 'Opava'), municipality('1', 'Opava'), municipality('4', 'Kravaře')];
      }
      await build.load(batches());
      await build.seal();
      expect(names(await service.municipalities('CZ'))).toEqual(['Bludov', 'Opava']);
      await build.commit();
      // SQLite readers notice a swapped file within FOLLOW_MS (as every read does); OpenSearch at once.
      let last: unknown[] = [];
      await waitFor('the new version in the list', async () => ((last = names(await service.municipalities('CZ'))), JSON.stringify(last) === JSON.stringify(['Kravaře', 'Opava'])), 5000, 50)
        .catch((e: Error) => { throw new Error(`${e.message}; last answer ${JSON.stringify(last)}`); });
      expect(names(await service.regions('CZ'))).toEqual(['Moravskoslezský']);
    });
  });
}
