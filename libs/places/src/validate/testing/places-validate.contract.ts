import { parseRequest, PlaceValidateRequest, PlaceValidation } from '@lookup/contracts';
import { PlacesStore } from '../../store/places.store';
import { PlacesSearchService } from '../../search/places-search.service';
import { address, searchFixtureDocs } from '../../search/testing/search-fixtures';
import { PlacesValidateService } from '../places-validate.service';

/**
 * Validation through the real search over an engine, the same fixtures and expectations on
 * every engine: the searches must find the candidates the verdict needs (typo pass, refiners).
 */
export function placesValidateContract(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`places validate contract (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesValidateService;
    const validate = (p: Record<string, unknown>): Promise<PlaceValidation> => svc.validate(parseRequest(PlaceValidateRequest, p));
    const summary = (v: PlaceValidation) => [v.verdict, v.place?.formatted_address ?? null, v.corrections.map((c) => `${c.field}:${c.given ?? ''}>${c.value ?? ''}`)];

    beforeAll(async () => {
      store = await makeStore();
      await store.upsert(searchFixtureDocs());
      svc = new PlacesValidateService(new PlacesSearchService(store));
    });

    afterAll(() => dispose(store));

    it('finds the exact address, typed whole or in parts, and returns it as the search does', async () => {
      const whole = await validate({ query: 'Lihovarská 79/22a, 746 01 Opava' });
      expect(summary(whole)).toEqual(['exact', 'Lihovarská 79/22a, 746 01 Opava', []]);
      expect(whole.place).toMatchObject({ place_id: 'cz_a21600001', object: 'address', latlng: { lat: expect.any(Number), lng: expect.any(Number) } });
      const parts = await validate({ street: 'Lihovarská', street_number: '79', building_number: '22a', municipality: 'Opava', postal_code: '74601', country: 'CZ' });
      expect(parts.place).toEqual(whole.place);
    });

    it('corrects a wrong postal code, a misspelt town and a missing orientation number', async () => {
      expect(summary(await validate({ query: 'Lihovarská 79/22a', municipality: 'Opava', postal_code: '746 99' }))).toEqual([
        'corrected', 'Lihovarská 79/22a, 746 01 Opava', ['postal_code:746 99>746 01'],
      ]);
      expect(summary(await validate({ query: 'Lihovarská 79/22a', municipality: 'Opavva' }))).toEqual(['corrected', 'Lihovarská 79/22a, 746 01 Opava', ['municipality:Opavva>Opava']]);
      expect(summary(await validate({ query: 'Lihovarska 79 Opva' }))).toEqual([
        'corrected', 'Lihovarská 79/22a, 746 01 Opava', ['building_number:>22a', 'municipality:Opva>Opava'],
      ]);
      expect(summary(await validate({ query: 'Kijevská 2125', municipality: 'Svitavy', postal_code: '56802' }))).toEqual([
        'corrected', 'Kijevská 2125/13c, 568 02 Svitavy', ['building_number:>13c'],
      ]);
    });

    it('corrects a town typed short of its name to the name; a city of boroughs written without its borough is as typed', async () => {
      expect(summary(await validate({ query: 'Cihelní 265 Branka' }))).toEqual(['corrected', 'Cihelní 265, 747 41 Branka u Opavy', ['municipality:Branka>Branka u Opavy']]);
      expect(summary(await validate({ query: 'Cihelní 265', municipality: 'Branka' }))).toEqual(['corrected', 'Cihelní 265, 747 41 Branka u Opavy', ['municipality:Branka>Branka u Opavy']]);
      expect(summary(await validate({ query: 'Cihelní 265 Branka u Opavy' }))).toEqual(['exact', 'Cihelní 265, 747 41 Branka u Opavy', []]);
      expect(summary(await validate({ query: 'Hlavná 12/3, 811 01 Bratislava' }))).toEqual(['exact', 'Hlavná 12/3, 811 01 Bratislava - Staré Mesto', []]);
    });

    it('reports what was given as it was typed: case and the postal code\'s space or dash kept', async () => {
      expect(summary(await validate({ query: 'Lihovarská 79/22a, 746 99 OPAVA' }))).toEqual(['corrected', 'Lihovarská 79/22a, 746 01 Opava', ['postal_code:746 99>746 01']]);
      expect(summary(await validate({ query: 'Lihovarská 79/22a, Opavva' }))).toEqual(['corrected', 'Lihovarská 79/22a, 746 01 Opava', ['municipality:Opavva>Opava']]);
    });

    it('takes the postal code\'s post office town, typed whole, with or without the code, as a correct town', async () => {
      // 586 01 serves Rančířov from Jihlava's post office (its document names Jihlava): a Czech postal address may be written so.
      expect(summary(await validate({ query: 'Rančířov 86, 586 01 Jihlava' }))).toEqual(['exact', 'Rančířov 86, 586 01 Rančířov', []]);
      expect(summary(await validate({ query: 'Rančířov 86', municipality: 'Jihlava', postal_code: '586 01' }))).toEqual(['exact', 'Rančířov 86, 586 01 Rančířov', []]);
      // Without the code too: the town is the post office's of the address's own code, as the search reads it.
      expect(summary(await validate({ query: 'Rančířov 86', municipality: 'Jihlava' }))).toEqual(['exact', 'Rančířov 86, 586 01 Rančířov', []]);
      expect(summary(await validate({ query: 'Rančířov 86, Jihlava' }))).toEqual(['exact', 'Rančířov 86, 586 01 Rančířov', []]);
      // Not another town with the code, nor a town that is neither the address's nor its post office's.
      expect(summary(await validate({ query: 'Rančířov 86, 586 01 Opava' }))).toEqual(['corrected', 'Rančířov 86, 586 01 Rančířov', ['municipality:Opava>Rančířov']]);
      expect(summary(await validate({ query: 'Rančířov 86, Opava' }))[0]).toBe('not_found');
    });

    it('reads a Slovak postal code sent as a number with its leading zero', async () => {
      expect(summary(await validate({ query: 'Krásna 5', municipality: 'Košice - Krásna', postal_code: 4018, country: 'SK' }))).toEqual(['exact', 'Krásna 5, 040 18 Košice - Krásna', []]);
    });

    it('trusts the postal code over a wrong town', async () => {
      expect(summary(await validate({ query: 'Lihovarská 79/22a', municipality: 'Olomouc', postal_code: '74601' }))).toEqual([
        'corrected', 'Lihovarská 79/22a, 746 01 Opava', ['municipality:Olomouc>Opava'],
      ]);
      // The same written in one line: the town after the postal code.
      expect(summary(await validate({ query: 'Lihovarská 79/22a, 746 01 Olomouc' }))).toEqual(['corrected', 'Lihovarská 79/22a, 746 01 Opava', ['municipality:Olomouc>Opava']]);
    });

    it('does not correct a wrong postal code together with a town that is not the one typed (two errors are a guess)', async () => {
      // Cihelní 265 is in Branka u Opavy (747 41): Opava, one letter from the name's last word, with Opava's code is another town.
      expect(summary(await validate({ query: 'Cihelní 265, 746 01 Opava' }))[0]).toBe('not_found');
      expect(summary(await validate({ query: 'Cihelní 265', municipality: 'Opava', postal_code: '746 01' }))[0]).toBe('not_found');
      // The town typed short of its name, with a wrong code.
      expect(summary(await validate({ query: 'Cihelní 265, 747 99 Branka' }))[0]).toBe('not_found');
      // Either error alone is still corrected.
      expect(summary(await validate({ query: 'Cihelní 265, 747 99 Branka u Opavy' }))).toEqual(['corrected', 'Cihelní 265, 747 41 Branka u Opavy', ['postal_code:747 99>747 41']]);
      expect(summary(await validate({ query: 'Cihelní 265, 747 41 Branka' }))).toEqual(['corrected', 'Cihelní 265, 747 41 Branka u Opavy', ['municipality:Branka>Branka u Opavy']]);
    });

    it('says not_found for a number that does not exist and a street the town does not have', async () => {
      expect((await validate({ query: 'Lihovarská 999', municipality: 'Opava' })).verdict).toBe('not_found');
      expect((await validate({ query: 'Lidická 500', municipality: 'Opava' })).verdict).toBe('not_found');
      expect((await validate({ query: 'Neexistující 5, Opava' })).verdict).toBe('not_found');
    });

    it('is ambiguous with candidates when several addresses fit', async () => {
      const v = await validate({ query: 'Nádražní 1', country: 'CZ' });
      expect([v.verdict, v.status]).toEqual(['ambiguous', 'many']);
      expect(v.candidates.map((p) => p.formatted_address).sort()).toEqual(['Nádražní 1, 568 02 Svitavy', 'Nádražní 1, 746 01 Opava']);
      const street = await validate({ street: 'Lihovarská', municipality: 'Opava', limit: 2 });
      expect([street.verdict, street.status, street.candidates.length]).toEqual(['ambiguous', 'insufficient', 2]);
    });

    it('finds a house number written as a range (1-3), whole or by its first number', async () => {
      expect(summary(await validate({ query: 'Bäckerstraße 1-3, 1010 Wien' }))).toEqual(['exact', 'Bäckerstraße 1-3, 1010 Wien', []]);
      expect(summary(await validate({ street: 'Bäckerstraße', building_number: '1-3', postal_code: '1010', municipality: 'Wien', country: 'AT' }))).toEqual(['exact', 'Bäckerstraße 1-3, 1010 Wien', []]);
      // One end alone: that house, with its number corrected to the range.
      expect(summary(await validate({ query: 'Bäckerstraße 3, 1010 Wien' }))).toEqual(['corrected', 'Bäckerstraße 1-3, 1010 Wien', ['building_number:3>1-3']]);
    });

    it('reads a four-digit postal code in the query (AT, CH, LI), not as the house number', async () => {
      expect(summary(await validate({ query: 'Stephansplatz 1, 1010 Wien' }))).toEqual(['exact', 'Stephansplatz 1, 1010 Wien', []]);
      expect(summary(await validate({ query: 'Bahnhofstrasse 1, 8001 Zürich', country: 'CH' }))).toEqual(['exact', 'Bahnhofstrasse 1, 8001 Zürich', []]);
      expect(summary(await validate({ query: 'Rue du Rhône 5 1204 Genève' }))).toEqual(['exact', 'Rue du Rhône 5, 1204 Genève', []]);
      // The wrong one of the town's postal codes is corrected, as a five-digit one is.
      expect(summary(await validate({ query: 'Schulgasse 4, 1010 Wien', country: 'AT' }))).toEqual(['corrected', 'Schulgasse 4, 1180 Wien', ['postal_code:1010>1180']]);
      // Where the four digits are a house number after a number in the street's name, they stay one.
      await store.upsert([address('svitavy', '17. listopadu', '1731', { adm: 57800001 })]);
      expect(summary(await validate({ query: '17. listopadu 1731, Svitavy' }))).toEqual(['exact', '17. listopadu 1731, 568 02 Svitavy', []]);
      // A country of five-digit codes never reads them as one.
      expect((await validate({ query: 'Stephansplatz 1, 1010 Wien', country: 'CZ' })).verdict).toBe('not_found');
    });

    it('accounts for every number typed: none is dropped, one in the town\'s name is the town\'s', async () => {
      // `31.1` is not number 1 (nor 31): a number the address does not have is not ignored.
      expect((await validate({ query: 'Bahnhofstrasse 31.1, Zürich' })).verdict).toBe('not_found');
      expect((await validate({ query: 'Lihovarská 5 79, Opava' })).verdict).toBe('not_found');
      // Both house numbers written with a space instead of the slash: the address as typed.
      expect(summary(await validate({ query: 'Kijevská 2125 13c Svitavy' }))).toEqual(['exact', 'Kijevská 2125/13c, 568 02 Svitavy', []]);
      // The last number is the town's (`Praha 9`): the one before it is the house number.
      await store.upsert([address('svitavy', 'Vodičkova', '30', { adm: 57800002, district: 'Praha 9' })]);
      expect(summary(await validate({ query: 'Vodičkova 30, Praha 9' }))).toEqual(['exact', expect.stringContaining('Vodičkova 30'), []]);
    });

    it('keeps to the requested countries', async () => {
      expect((await validate({ query: 'Lihovarská 79/22a Opava', country: 'SK' })).verdict).toBe('not_found');
    });
  });
}
