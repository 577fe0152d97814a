import { parseRequest, Place, PlaceQueryRequest, PlaceReverseRequest, MunicipalityQueryRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { wgs84ToJtsk } from '../../geo/sjtsk';
import { PlacesStore } from '../../store/places.store';
import { PlacesSearchService } from '../places-search.service';
import { address, searchFixtureDocs, TOWNS } from './search-fixtures';
import { languagesSearchContract } from './places-search-languages.contract';
import { placeId } from '../../domain/place.doc';

const ADDRESS_FIELDS = [
  'building_number', 'country', 'county', 'district', 'formatted_address', 'formatted_country', 'formatted_number', 'formatted_street',
  'highlight', 'latlng', 'municipality', 'object', 'place_id', 'postal_code', 'region', 'street', 'street_number',
].sort();

/**
 * The search behaviour of issues 3 and 4, one named test each, run unchanged against every engine:
 * `makeStore` gives a fresh, initialised, empty store. Same fixture documents, same expectations.
 */
export function placesSearchContract(
  engine: string,
  makeStore: () => Promise<PlacesStore>,
  dispose: (s: PlacesStore) => Promise<void>,
  /** How the service is made over the store: as is, or searching on threads (`SearchThreads`). */
  makeService: (s: PlacesStore) => PlacesSearchService = (s) => new PlacesSearchService(s),
): void {
  describe(`places search contract (${engine})`, () => {
    let store: PlacesStore;
    let svc: PlacesSearchService;
    const q = (p: Record<string, unknown>) => svc.query(parseRequest(PlaceQueryRequest, p));
    const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);

    beforeAll(async () => {
      store = await makeStore();
      await store.upsert(searchFixtureDocs());
      svc = makeService(store);
    });

    afterAll(async () => {
      await dispose(store);
    });

    it('matches the word being typed as a prefix', async () => {
      const r = await q({ query: 'Lihov' });
      expect(r.length).toBeGreaterThan(0);
      for (const p of r) expect(p.street).toBe('Lihovarská');
    });

    it('matches the words already typed as whole words only', async () => {
      expect(await q({ query: 'Liho 79' })).toEqual([]);
      expect(texts(await q({ query: 'Lihovarská 79' }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
    });

    it('accepts any word order', async () => {
      for (const query of ['Opava Lihovarská 79/22a', '79/22a Lihovarská Opava', 'Předměstí 79/22a lihovarská']) {
        expect(texts(await q({ query }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
      }
    });

    it('ignores diacritics', async () => {
      expect(texts(await q({ query: 'lihovarska 79 opava' }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(texts(await q({ query: 'RANCIROV 86' }))[0]).toBe('Rančířov 86, 586 01 Rančířov');
    });

    it('ranks the exact-diacritics form first', async () => {
      expect((await q({ query: 'Krásná 5' })).map((p) => p.country)).toEqual(['CZ', 'SK']);
      expect((await q({ query: 'Krásna 5' })).map((p) => p.country)).toEqual(['SK', 'CZ']);
      expect((await q({ query: 'krasna 5' })).length).toBe(2);
    });

    it('tolerates typos in a second pass when the strict pass finds nothing', async () => {
      expect(texts(await q({ query: 'Lihovarka 79' }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(texts(await q({ query: 'Lihovasrká 79 Opava' }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
      // A strict hit exists: no typo neighbours are mixed in (Opavská in Branka is not Opava).
      const strict = await q({ query: 'Opava 12 ' });
      expect(strict.every((p) => p.municipality === 'Opava')).toBe(true);
    });

    it('forgives a typo in the word being typed, two typos, transposed letters and stray diacritics', async () => {
      const first = async (query: string) => texts(await q({ query }))[0];
      expect(await first('Lihovarská 79 Opaav')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('Lihovarská 79 Opaba')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('Lihovraská 79 Opvaa')).toBe('Lihovarská 79/22a, 746 01 Opava');
      // The start of a word, with a typo in it: `Lihovs` is on its way to Lihovarská.
      expect(await first('Opava 79 Lihovs')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('LÍHOVARSKA 79 opáva')).toBe('Lihovarská 79/22a, 746 01 Opava');
    });

    it('keeps same-name municipalities apart, shown with their county', async () => {
      const r = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Frymburk' }));
      expect(r.map((p) => p.county).sort()).toEqual(['Klatovy', 'Český Krumlov']);
      expect(r.map((p) => p.highlight).sort()).toEqual(['<em>Frymburk</em>, Klatovy', '<em>Frymburk</em>, Český Krumlov']);
      const typo = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Frymbrk' }));
      expect(typo.length).toBe(2);
    });

    it('reads a bare number as people mean it: orientation with a street, conscription without; the part named as typed first', async () => {
      expect(texts(await q({ query: 'Malá strana 8 Rančířov' }))).toEqual(['Malá strana 120/8, 586 01 Rančířov', 'Malá strana 8, 586 01 Rančířov']);
      expect(texts(await q({ query: 'Drkolná 59' }))[0]).toBe('Drkolná 59, 586 01 Rančířov');
      expect((await q({ query: 'Frymburk 17' }))[0].district).toBe('Frymburk');
    });

    it('reads house numbers in every written form', async () => {
      const first = async (query: string) => texts(await q({ query }))[0];
      expect(await first('Lihovarská 79')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('Lihovarská 22a')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('Lihovarská 79/22a')).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(await first('Lihovarská 7/1150 ')).toBe('Lihovarská 1150/7, 746 01 Opava');
      expect(await first('Podvihov č. ev. 59')).toBe('Podvihov č. ev. 59, 747 06 Opava');
      expect(await first('Podvihov c.ev.59')).toBe('Podvihov č. ev. 59, 747 06 Opava');
      expect(await first('Podvihov ev. 59, 747 06 Opava')).toBe('Podvihov č. ev. 59, 747 06 Opava');
      // `č. ev.` typed: an evidence number being typed ranks above a conscription number of the same digits.
      expect(texts(await q({ query: 'Drkolná č. ev. 5' }))[0]).toBe('Drkolná č. ev. 59, 586 01 Rančířov');
      expect(await first('Rančířov 86')).toBe('Rančířov 86, 586 01 Rančířov');
      expect(await first('Kijevská 2125 Svitavy')).toBe('Kijevská 2125/13c, 568 02 Svitavy');
    });

    it('ranks exact house numbers above prefixes (8 before 83, 83 before 83a)', async () => {
      expect(texts(await q({ query: 'Lihovarská 8' })).slice(0, 3)).toEqual([
        'Lihovarská 8, 746 01 Opava',
        'Lihovarská 83, 746 01 Opava',
        'Lihovarská 83a, 746 01 Opava',
      ]);
      expect(texts(await q({ query: 'Lihovarská 83' }))).toEqual(['Lihovarská 83, 746 01 Opava', 'Lihovarská 83a, 746 01 Opava']);
    });

    it('expands the abbreviations nám., tř., ul. and sv.', async () => {
      expect(texts(await q({ query: 'Horní nám. 69' }))[0]).toBe('Horní náměstí 69/1, 746 01 Opava');
      expect(texts(await q({ query: 'tř. Svobody 39 Olomouc' }))[0]).toBe('třída Svobody 39/1, 779 00 Olomouc');
      expect(texts(await q({ query: 'ul. Lidická 500' }))[0]).toBe('Lidická 500, 417 05 Osek');
      expect(texts(await q({ query: 'sv. Čecha 7' }))).toEqual(['Svatého Čecha 7, 746 01 Opava']);
      // ... also where the register itself abbreviates (`Fügnerovo nám.`).
      for (const query of ['Fügnerovo nám. 2428', 'Fügnerovo náměstí 2428', 'fugnerovo namesti 2428 ', 'Fügnerovo nam']) {
        expect(texts(await q({ query }))[0]).toBe('Fügnerovo nám. 2428, 397 01 Písek');
      }
      expect((await q({ query: 'Fügnerovo náměstí 2428' }))[0].highlight).toBe('<em>Fügnerovo</em> <em>nám</em>. <em>2428</em>, 397 01 Písek');
    });

    it('matches partial postal codes with or without the space', async () => {
      const codes = async (query: string) => (await svc.postal(parseRequest(PostalQueryRequest, { query }))).map((p) => p.postal_code);
      expect(await codes('746')).toEqual(['746 01']);
      expect(await codes('74')).toEqual(['746 01', '747 06', '747 41']);
      expect(await codes('74601')).toEqual(['746 01']);
      expect(await codes('746 01')).toEqual(['746 01']);
      expect(texts(await q({ query: 'Lihovarská 79, 746 01 Opava' }))[0]).toBe('Lihovarská 79/22a, 746 01 Opava');
      expect(texts(await q({ query: 'Cihelní 265, 74741' }))[0]).toBe('Cihelní 265, 747 41 Branka u Opavy');
    });

    it('keeps the address while its postal code, or a c. ev. mark, is being typed', async () => {
      // Every keystroke of the written form: the list must not go empty halfway (`..., 74`, `..., 747 0`).
      for (const full of ['Cihelní 265, 747 41 Branka', 'Lihovarská 79/22a, 746 01 Opava', 'Podvihov č. ev. 59, 747 06 Opava']) {
        const want = (await q({ query: full }))[0].place_id;
        for (let i = full.indexOf(',') + 1; i <= full.length; i++) {
          const typed = full.slice(0, i);
          expect([typed, (await q({ query: typed })).map((p) => p.place_id)]).toEqual([typed, expect.arrayContaining([want])]);
        }
      }
      // Without the comma, and a bare `č` (which could start a word): what the text before it finds stays.
      const cihelni = (await q({ query: 'Cihelní 265, 747 41 Branka' }))[0].place_id;
      for (const typed of ['Cihelní 265 7', 'Cihelní 265 747 ', 'Cihelní 265 747 4']) expect([typed, (await q({ query: typed })).map((p) => p.place_id)]).toEqual([typed, [cihelni]]);
      // Without the comma, keystroke by keystroke: the house number is kept, the digits after it are the postal code's start
      // (`Nádražní 153 56` is not the code 153 56, `Nádražní 1 56` not the house numbers 1 and 56).
      for (const typed of ['Nádražní 153 5', 'Nádražní 153 56', 'Nádražní 153 568', 'Nádražní 153 568 0']) expect([typed, texts(await q({ query: typed }))]).toEqual([typed, ['Nádražní 153, 568 02 Svitavy']]);
      for (const typed of ['Nádražní 1 5', 'Nádražní 1 56']) expect([typed, texts(await q({ query: typed }))[0]]).toEqual([typed, 'Nádražní 1, 568 02 Svitavy']);
      expect(texts(await q({ query: 'Nádražní 1 56' }))).not.toContain('Nádražní 1, 746 01 Opava');
      // Where no code starts so, the other reading: a second number (`Lihovarská 79 22`: 79/22a).
      expect(texts(await q({ query: 'Lihovarská 79 22' }))).toEqual(['Lihovarská 79/22a, 746 01 Opava']);
      // A house number that does not exist, typed, stays an empty answer.
      expect(await q({ query: 'Cihelní 266' })).toEqual([]);
      for (const typed of ['Podvihov č', 'Podvihov ev', 'Podvihov ev.', 'Podvihov č.', 'Podvihov č. e', 'Podvihov č. ev. ']) expect(texts(await q({ query: typed }))).toContain('Podvihov č. ev. 59, 747 06 Opava');
    });

    it('answers a municipality search by the name of a part with the municipality it belongs to', async () => {
      const m = (query: string) => svc.municipality(parseRequest(MunicipalityQueryRequest, { query }));
      // Drkolná is a part of Rančířov, Předměstí of Opava: no municipality has either name.
      const drkolna = await m('Drkolná');
      expect(drkolna.map((p) => [p.municipality, p.highlight, p.object])).toEqual([['Rančířov', '<em>Drkolná</em> (Rančířov)', 'municipality']]);
      expect(drkolna[0].place_id).toBe(placeId('CZ', 'municipality', TOWNS.rancirov.code));
      expect((await m('predmesti'))[0]).toMatchObject({ municipality: 'Opava', highlight: '<em>Předměstí</em> (Opava)' });
      // Typed: from the sixth letter on (a shorter start matches too many addresses to read).
      expect((await m('Drkoln'))[0]).toMatchObject({ municipality: 'Rančířov', highlight: '<em>Drkoln</em>á (Rančířov)' });
      expect((await m('Drkol')).map((p) => p.municipality)).not.toContain('Rančířov');
      // A municipality's own name answers as before, without parts.
      expect((await m('Opava')).map((p) => p.highlight)).toEqual(['<em>Opava</em>']);
    });

    it('finds an address written with its post office town after the code', async () => {
      // Rančířov has 586 01 from Jihlava's post office: `Rančířov 86, 586 01 Jihlava`, typed to its end and keystroke by keystroke.
      const full = 'Rančířov 86, 586 01 Jihlava';
      for (let i = full.indexOf('01') + 2; i <= full.length; i++) {
        const typed = full.slice(0, i);
        expect([typed, texts(await q({ query: typed }))[0]]).toEqual([typed, 'Rančířov 86, 586 01 Rančířov']);
      }
      expect(texts(await q({ query: 'Rančířov 86 586 01 Jihlava ' }))[0]).toBe('Rančířov 86, 586 01 Rančířov');
      // Without a house number too, keystroke by keystroke from the code's third digit on (`Rančířov, 5` may be a house number).
      const place = 'Rančířov, 586 01 Jihlava';
      for (let i = place.indexOf('586') + 3; i <= place.length; i++) {
        const typed = place.slice(0, i);
        expect([typed, texts(await q({ query: typed }))[0]]).toEqual([typed, expect.stringMatching(/, 586 01 Rančířov$/)]);
      }
      // And before a typo pass guesses at the town (`Malá stráň 8` is Jihlava's, one edit away).
      expect(texts(await q({ query: 'Rančířov, 586 01 Jihlava' }))[0]).toMatch(/^Rančířov \d+, 586 01 Rančířov$/);
      expect(texts(await q({ query: 'Malá strana 8, 586 01 Jihlava' }))[0]).toMatch(/^Malá strana (120\/)?8, 586 01 Rančířov$/);
      expect(texts(await q({ query: 'Malá stran 8, 586 01 Jihlava' }))[0]).toBe('Malá stráň 8, 586 01 Jihlava');
      // A typo in the town field: the typo pass's refiner forgives it as it forgives the query's words.
      expect(texts(await q({ query: 'Rančířov 86', municipality: 'Rančířow' }))).toEqual(['Rančířov 86, 586 01 Rančířov']);
      expect(await q({ query: 'Rančířov 86', municipality: 'Jihlavx' })).toEqual([]);
      // A three-field form: the town field holding the post office's town of the code field.
      expect(texts(await q({ query: 'Rančířov 86', municipality: 'Jihlava', postal_code: '586 01' }))).toEqual(['Rančířov 86, 586 01 Rančířov']);
      expect(texts(await q({ query: 'Rančířov 8', municipality: 'Jihl', postal_code: '58601' }))[0]).toBe('Rančířov 8, 586 01 Rančířov');
      // Not another town, nor a code whose own town it is not.
      expect(await q({ query: 'Rančířov 86', municipality: 'Opava', postal_code: '586 01' })).toEqual([]);
      expect(await q({ query: 'Rančířov 86', municipality: 'Jihlava', postal_code: '746 01' })).toEqual([]);
      // The code stays: another code answers nothing.
      expect(await q({ query: 'Rančířov 86, 746 01 Jihlava' })).toEqual([]);
    });

    it('finds an address written with its post office town and no postal code', async () => {
      // 586 01's own document names Jihlava: `Rančířov 86, Jihlava` is Rančířov 86, keystroke by keystroke once the town is begun.
      const full = 'Rančířov 86, Jihlava';
      for (let i = full.indexOf('J') + 1; i <= full.length; i++) {
        const typed = full.slice(0, i);
        expect([typed, texts(await q({ query: typed }))[0]]).toEqual([typed, 'Rančířov 86, 586 01 Rančířov']);
      }
      expect(texts(await q({ query: 'Malá strana 8 Jihlava ' }))[0]).toMatch(/^Malá strana (120\/)?8, 586 01 Rančířov$/);
      // Not a town that is neither the address's nor its post office's, and not without a house number.
      expect(await q({ query: 'Rančířov 86, Opava' })).toEqual([]);
      expect(texts(await q({ query: 'Rančířov, Jihlava' })).filter((t) => t?.startsWith('Rančířov'))).toEqual([]);
    });

    it('biases towards around_latlng, boundedly', async () => {
      const sv = `${TOWNS.svitavy.lat},${TOWNS.svitavy.lng}`;
      const op = `${TOWNS.opava.lat},${TOWNS.opava.lng}`;
      expect((await q({ query: 'Nádražní 1', around_latlng: sv }))[0].municipality).toBe('Svitavy');
      expect((await q({ query: 'Nádražní 1', around_latlng: op }))[0].municipality).toBe('Opava');
      // A strong text match far away (Opava, exactly 15) still beats a weak one nearby (Svitavy, 153).
      expect(texts(await q({ query: 'Nádražní 15', around_latlng: sv }))).toEqual(['Nádražní 15, 746 01 Opava', 'Nádražní 153, 568 02 Svitavy']);
    });

    it('removes duplicates', async () => {
      expect(texts(await q({ query: 'Lidická 501' }))).toEqual(['Lidická 501, 417 05 Osek']);
    });

    it('highlights the matched parts with <em> and escapes the rest', async () => {
      expect((await q({ query: 'lihovarska 79/2' }))[0].highlight).toBe('<em>Lihovarská</em> <em>79</em>/<em>2</em>2a, 746 01 Opava');
      expect((await q({ query: 'Cihelní 265 747 41' }))[0].highlight).toBe('<em>Cihelní</em> <em>265</em>, <em>747 41</em> Branka u Opavy');
    });

    it('returns the address field set with formatted addresses per country', async () => {
      const [cz] = await q({ query: 'Lihovarská 79/22a' });
      expect(Object.keys(cz).sort()).toEqual(ADDRESS_FIELDS);
      expect(cz).toMatchObject({
        formatted_address: 'Lihovarská 79/22a, 746 01 Opava', formatted_street: 'Lihovarská 79/22a', formatted_number: '79/22a',
        street: 'Lihovarská', street_number: '79', building_number: '22a', postal_code: '746 01', municipality: 'Opava', district: 'Předměstí',
        county: 'Opava', region: 'Moravskoslezský kraj', object: 'address', country: 'CZ', formatted_country: 'Česko',
      });
      expect(cz.place_id).toBe('cz_a21600001');
      const [sk] = await q({ query: 'Hlavná 12/3' });
      expect(sk).toMatchObject({ formatted_street: 'Hlavná 12/3', country: 'SK', formatted_country: 'Slovensko' });
      const [village] = await q({ query: 'Rančířov 86' });
      expect(village.street).toBeNull();
      expect(village.building_number).toBeNull();
    });

    it('filters by context (strict) and boosts by it (preference)', async () => {
      const svitavy = placeId('CZ', 'municipality', TOWNS.svitavy.code);
      const strict = await q({ query: 'Nádražní 1', context: [svitavy] });
      expect(strict.map((p) => p.municipality)).toEqual(['Svitavy', 'Svitavy']);
      const county = await q({ query: 'Nádražní', context: { 0: placeId('CZ', 'county', '3806') }, contextType: 'strict' });
      expect(new Set(county.map((p) => p.municipality))).toEqual(new Set(['Opava']));
      const pref = await q({ query: 'Nádražní 1', context: svitavy, contextType: 'preference' });
      expect(pref[0].municipality).toBe('Svitavy');
      expect(pref.some((p) => p.municipality === 'Opava')).toBe(true);
    });

    it('searches only the given countries', async () => {
      expect((await q({ query: 'krasna 5', country: 'CZ' })).map((p) => p.country)).toEqual(['CZ']);
      expect((await q({ query: 'krasna 5', country: ['sk'] })).map((p) => p.country)).toEqual(['SK']);
      expect((await q({ query: 'krasna 5', country: 'CZ,SK' })).length).toBe(2);
    });

    it('returns at most limit results, 7 by default', async () => {
      expect((await q({ query: 'Lihovarská', limit: '2' })).length).toBe(2);
      expect((await q({ query: 'Opava' })).length).toBe(7);
    });

    it('refines by street, municipality and postal_code', async () => {
      expect(texts(await q({ query: 'Nádražní', street: 'Nádražní 153' }))).toEqual(['Nádražní 153, 568 02 Svitavy']);
      expect(new Set((await q({ query: 'Nádražní 1', municipality: 'Svit' })).map((p) => p.municipality))).toEqual(new Set(['Svitavy']));
      expect(new Set((await q({ query: 'Nádražní', postal_code: '568' })).map((p) => p.municipality))).toEqual(new Set(['Svitavy']));
      const pref = await q({ query: 'Nádražní 1', municipality: 'Svitavy', contextType: 'preference' });
      expect(pref[0].municipality).toBe('Svitavy');
      expect(pref.some((p) => p.municipality === 'Opava')).toBe(true);
    });

    it('finds streets, with the street field set and the municipality refiner', async () => {
      const r = await svc.street(parseRequest(StreetQueryRequest, { query: 'Nádr' }));
      expect(r.map((p) => p.municipality).sort()).toEqual(['Opava', 'Svitavy']);
      expect(Object.keys(r[0]).sort()).toEqual(['country', 'formatted_country', 'highlight', 'municipality', 'object', 'place_id', 'street']);
      expect(r[0].highlight).toBe('<em>Nádr</em>ažní');
      const only = await svc.street(parseRequest(StreetQueryRequest, { query: 'nadrazni', municipality: 'Svitavy' }));
      expect(only.map((p) => p.municipality)).toEqual(['Svitavy']);
    });

    it('finds municipalities, with the municipality field set and the postal_code refiner', async () => {
      const r = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Opa' }));
      // `Opa` is a prefix of Opava and of Opavy: the whole-name match first.
      expect(r.map((p) => p.municipality)).toEqual(['Opava', 'Branka u Opavy']);
      expect(Object.keys(r[0]).sort()).toEqual(['country', 'county', 'formatted_country', 'highlight', 'latlng', 'municipality', 'object', 'place_id', 'region']);
      const branka = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'Branka u' }));
      expect(branka.map((p) => p.municipality)).toEqual(['Branka u Opavy']);
      expect(branka[0].highlight).toBe('<em>Branka</em> <em>u</em> Opavy');
      const byPostal = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'o', postal_code: '417' }));
      expect(byPostal.map((p) => p.municipality)).toEqual(['Osek']);
      const preferred = await svc.municipality(parseRequest(MunicipalityQueryRequest, { query: 'o', postal_code: '417', contextType: 'preference' }));
      expect(preferred[0].municipality).toBe('Osek');
      expect(preferred.length).toBeGreaterThan(1);
    });

    it('refines municipalities by a postal code every one of them has, not only the one its document names', async () => {
      // The widget sends the postal field with each keystroke of the town: 586 01 is Jihlava's and Rančířov's.
      const towns = async (query: string, postal_code: string) => (await svc.municipality(parseRequest(MunicipalityQueryRequest, { query, postal_code }))).map((p) => p.municipality);
      expect(await towns('R', '586 01')).toEqual(['Rančířov']);
      expect(await towns('Ran', '58601')).toEqual(['Rančířov']);
      expect(await towns('J', '586 01')).toEqual(['Jihlava']);
      expect(await towns('O', '586 01')).toEqual([]);
      expect(await store.postalMunicipalities('CZ', '58601').then((ids) => ids.sort())).toEqual(['cz_m586846', 'cz_m587869']);
      expect(await store.postalMunicipalities('SK', '58601')).toEqual([]);
    });

    it('refines postal codes by a town whose addresses have the code, not only the town its document names', async () => {
      // The other way round: the postal field typed after the town. 586 01's document names Jihlava.
      const codes = async (query: string, municipality: string) => (await svc.postal(parseRequest(PostalQueryRequest, { query, municipality }))).map((p) => `${p.postal_code} ${p.municipality}`);
      // Named with the town it was refined by (a form fills the town field from it), not the one its document names.
      expect(await codes('586', 'Rančířov')).toEqual(['586 01 Rančířov']);
      expect(await codes('5', 'Ranč')).toEqual(['586 01 Rančířov']);
      expect(await codes('586', 'Jihlava')).toEqual(['586 01 Jihlava']);
      expect(await codes('747', 'Rančířov')).toEqual([]);
      // No town of that name, but a part of one: its addresses' codes, with the municipality a postal address writes.
      expect(await codes('747', 'Podvihov')).toEqual(['747 06 Opava']);
      expect(await codes('5', 'Předměstí')).toEqual(['568 02 Svitavy']);
      expect(await codes('58', 'Podvihov')).toEqual([]);
      // A typo in the town: the typo pass's towns (`Rančířow`, `Branka u Opavi`), on the code's own document too.
      expect(await codes('586', 'Rančířow')).toEqual(['586 01 Rančířov']);
      expect(await codes('747', 'Branka u Opavi')).toEqual(['747 41 Branka u Opavy']);
      expect(await codes('586', 'Jihlavx')).toEqual(['586 01 Jihlava']);
      expect(await codes('747', 'Rančířow')).toEqual([]);
      // What the store reads for it: the codes of the towns' documents, from the typed start.
      expect(await store.municipalityPostalCodes(['cz_m587869', 'cz_m586846'], '5', 50)).toEqual([
        { municipality_id: 'cz_m586846', postal_code: '58601' },
        { municipality_id: 'cz_m587869', postal_code: '58601' },
      ]);
      expect(await store.municipalityPostalCodes(['cz_m587869'], '58601', 50)).toEqual([{ municipality_id: 'cz_m587869', postal_code: '58601' }]);
      expect(await store.municipalityPostalCodes(['cz_m587869'], '587', 50)).toEqual([]);
      expect(await store.municipalityPostalCodes([], '5', 50)).toEqual([]);
    });

    it('gives a Slovak postal code sent as a number its leading zero back (no Slovak code starts with 1-7)', async () => {
      const postal = (query: unknown, country?: string) => svc.postal(parseRequest(PostalQueryRequest, { query, ...(country ? { country } : {}) }));
      expect((await postal(4018, 'SK')).map((p) => p.postal_code)).toEqual(['040 18']);
      expect((await postal('401', 'SK')).map((p) => p.postal_code)).toEqual(['040 18']);
      expect(texts(await q({ query: 'Krásna 5', postal_code: 4018, country: 'SK' }))).toEqual(['Krásna 5, 040 18 Košice - Krásna']);
      // Not where another country is searched too: there 4018 is a start of other codes.
      expect((await postal(4018)).map((p) => p.postal_code)).not.toContain('040 18');
    });

    it('finds postal codes, with the postal field set and the municipality refiner', async () => {
      const r = await svc.postal(parseRequest(PostalQueryRequest, { query: '747', municipality: 'Branka' }));
      expect(r.map((p) => p.postal_code)).toEqual(['747 41']);
      expect(Object.keys(r[0]).sort()).toEqual(['country', 'formatted_country', 'highlight', 'municipality', 'object', 'place_id', 'postal_code']);
      expect(r[0].highlight).toBe('<em>747</em> 41');
    });

    languagesSearchContract(() => svc, () => store);

    describe('reverse', () => {
      const lih = TOWNS.opava;
      const rev = (p: Record<string, unknown>) => svc.reverse(parseRequest(PlaceReverseRequest, p));

      it('finds addresses within distinct metres (10 by default), nearest first', async () => {
        expect(texts(await rev({ lat: String(lih.lat), lng: String(lih.lng) }))).toEqual(['Lihovarská 79/22a, 746 01 Opava']);
        const wider = await rev({ lat: String(lih.lat + 0.00001), lng: String(lih.lng), distinct: '60' });
        expect(texts(wider)).toEqual(['Lihovarská 79/22a, 746 01 Opava', 'Lihovarská 8, 746 01 Opava', 'Lihovarská 1150/7, 746 01 Opava']);
        expect(wider[0].highlight).toBe('Lihovarská 79/22a, 746 01 Opava');
        expect(await rev({ lat: '49.0', lng: '15.0' })).toEqual([]);
      });

      it('takes S-JTSK coordinates in either sign convention', async () => {
        const j = wgs84ToJtsk(lih.lat, lih.lng);
        for (const [x, y] of [[j.x, j.y], [-j.x, -j.y]]) {
          expect(texts(await rev({ jtskX: x.toFixed(2), jtskY: y.toFixed(2) }))).toEqual(['Lihovarská 79/22a, 746 01 Opava']);
        }
      });

      it('limits and filters by country', async () => {
        expect((await rev({ lat: String(lih.lat), lng: String(lih.lng), distinct: '2000', limit: '2' })).length).toBe(2);
        expect(await rev({ lat: String(lih.lat), lng: String(lih.lng), country: 'SK' })).toEqual([]);
      });
    });

    it('replaces a re-imported document everywhere (no stale search entries)', async () => {
      const moved = { ...address('branka', 'Cihelní', '266', { adm: 777 }) };
      await store.upsert([moved]);
      expect(texts(await q({ query: 'Cihelní 266' }))).toEqual(['Cihelní 266, 747 41 Branka u Opavy']);
      await store.upsert([{ ...moved, street_number: '268', name: 'Cihelní 268' }]);
      expect(await q({ query: 'Cihelní 266 ' })).toEqual([]);
      expect(texts(await q({ query: 'Cihelní 268' }))).toEqual(['Cihelní 268, 747 41 Branka u Opavy']);
      expect((await store.get(moved.place_id))?.street_number).toBe('268');
    });

    it('reads several documents by id in one call, leaving out the ids it does not hold', async () => {
      const ids = [placeId('CZ', 'postal_code', '74741'), placeId('CZ', 'postal_code', '74601'), placeId('CZ', 'postal_code', '99999'), placeId('SK', 'postal_code', '74741')];
      const got = await store.getMany(ids);
      expect(got.map((d) => [d.place_id, d.postal_code]).sort()).toEqual([[ids[1], '74601'], [ids[0], '74741']].sort());
      expect(await store.getMany([])).toEqual([]);
      const mixed = await store.getMany([ids[0], placeId('CZ', 'municipality', TOWNS.opava.code)]);
      expect(mixed.map((d) => d.place_id).sort()).toEqual([ids[0], placeId('CZ', 'municipality', TOWNS.opava.code)].sort());
    });
  });
}
