import { MunicipalityQueryRequest, parseRequest, Place, PlaceQueryRequest, PostalQueryRequest, StreetQueryRequest } from '@lookup/contracts';
import { formatAddress } from '../../domain/address-format';
import { PlacesStore } from '../../store/places.store';
import { PlacesSearchService } from '../places-search.service';
import { rankDocs } from '../ranking';
import { candidateQuery, passesRefiners, planSearch } from '../search-plan';

/**
 * The search behaviour of issue 4 (German, Polish, French and Italian text; PL/AT/CH/LI
 * numbers and postal codes), one named test each. Part of the shared contract: it runs inside
 * `placesSearchContract` on every engine, over the fixture documents of `search-fixtures.ts`.
 */
export function languagesSearchContract(service: () => PlacesSearchService, store: () => PlacesStore): void {
  const q = (query: string) => service().query(parseRequest(PlaceQueryRequest, { query }));
  const texts = (r: Place[]) => r.map((p) => p.formatted_address ?? p.street ?? p.municipality ?? p.postal_code);
  /** The strict pass alone: the equivalences must hold in the engine's own tokens, not come from typo tolerance. */
  const strictPass = async (query: string) => {
    const plan = planSearch('query', parseRequest(PlaceQueryRequest, { query }));
    const docs = (await store().candidates(candidateQuery(plan, 'strict'))).filter((d) => passesRefiners(plan, d));
    return rankDocs(plan.tokens, docs, plan.rank).map((r) => formatAddress(r.doc).formatted_address);
  };
  const first = async (query: string) => {
    const shown = texts(await q(query))[0];
    expect([query, (await strictPass(query))[0]]).toEqual([query, shown]);
    return shown;
  };
  const postal = async (query: string) => (await service().postal(parseRequest(PostalQueryRequest, { query }))).map((p) => p.postal_code);

  describe('German, Polish, French and Italian text', () => {
    it('finds ß as ss and ss as ß (Straße, Strasse)', async () => {
      // Both spellings exist: each query finds both, its own spelling first.
      expect(texts(await q('Bahnhofstraße 1 '))).toEqual(['Bahnhofstraße 1, 4020 Linz', 'Bahnhofstrasse 1, 8001 Zürich']);
      expect(texts(await q('Bahnhofstrasse 1 '))).toEqual(['Bahnhofstrasse 1, 8001 Zürich', 'Bahnhofstraße 1, 4020 Linz']);
      expect(await first('Hauptstrasse 12/3/5')).toBe('Hauptstraße 12/3/5, 1010 Wien');
      expect(await first('wiener strasse 5')).toBe('Wiener Straße 5, 4020 Linz');
      expect(await first('Schönbrunner Strasse 4')).toBe('Schönbrunner Straße 4, 1050 Wien');
      // Being typed: `Hauptstraß` is a prefix of hauptstrasse.
      expect(await first('1010 Hauptstraß')).toBe('Hauptstraße 12, 1010 Wien');
    });

    it('finds a German street name and its street word written as one (Wienerstrasse for Wiener Straße)', async () => {
      for (const query of ['Wienerstrasse 5', 'Wienerstraße 5 Linz', 'Wienerstr. 5', 'Schönbrunnerstrasse 4', 'Schoenbrunnerstrasse 4']) {
        expect(await first(query)).toBe(query.startsWith('Wiener') ? 'Wiener Straße 5, 4020 Linz' : 'Schönbrunner Straße 4, 1050 Wien');
      }
      // Typed on letter by letter: the joined form is a prefix like any other.
      expect(texts(await q('Wienerstr'))).toContain('Wiener Straße 5, 4020 Linz');
    });

    it('finds St. as Sankt, and St written without its dot as written', async () => {
      for (const query of ['Sankt Ulrichs-Platz 2', 'St. Ulrichs-Platz 2', 'St Ulrichs Platz 2', 'sankt ulrichs platz 2 wien']) {
        expect(await first(query)).toBe('St. Ulrichs-Platz 2, 1070 Wien');
      }
    });

    it('treats str., strasse and straße as one word, also as the end of a compound', async () => {
      for (const query of ['Hauptstr. 12/3/5', 'Hauptstr 12/3/5', 'Hauptstraße 12/3/5', 'hauptstrasse 12/3/5 wien']) {
        expect(await first(query)).toBe('Hauptstraße 12/3/5, 1010 Wien');
      }
      for (const query of ['Bahnhofstr 1 Zürich', 'Bahnhofstr. 1 Zürich', 'Bahnhofstrasse 1', 'Bahnhofstraße 1, 8001 Zürich']) {
        expect(await first(query)).toBe('Bahnhofstrasse 1, 8001 Zürich');
      }
      expect(new Set(texts(await q('Bahnhofstr 1')))).toEqual(new Set(['Bahnhofstrasse 1, 8001 Zürich', 'Bahnhofstraße 1, 4020 Linz']));
      for (const query of ['Wiener Str. 5', 'Wiener Str 5', 'Wiener Straße 5']) expect(await first(query)).toBe('Wiener Straße 5, 4020 Linz');
      // The register's own abbreviation meets the written-out word.
      for (const query of ['Äulestrasse 30', 'Aeulestraße 30', 'Äulestr. 30']) expect(await first(query)).toBe('Äulestr. 30, 9490 Vaduz');
    });

    it('folds umlauts both ways: u and ue find ü (ä/ae, ö/oe alike)', async () => {
      for (const query of ['Müllerstrasse 10', 'Mullerstrasse 10', 'Muellerstrasse 10', 'muellerstr. 10']) {
        expect(await first(query)).toBe('Müllerstrasse 10, 8004 Zürich');
      }
      expect(await strictPass('Mullerstrasse 10')).toEqual(['Müllerstrasse 10, 8004 Zürich']);
      for (const query of ['Bärengasse 22', 'Barengasse 22', 'Baerengasse 22']) expect(await first(query)).toBe('Bärengasse 22, 8001 Zürich');
      for (const query of ['Schönbrunner Straße 4', 'Schonbrunner Strasse 4', 'Schoenbrunner Str. 4']) {
        expect(await first(query)).toBe('Schönbrunner Straße 4, 1050 Wien');
      }
      // A name written with `ue` is found as typed with ü or u too.
      for (const query of ['Mühlebachstrasse 8', 'Muhlebachstrasse 8', 'Muehlebachstrasse 8']) {
        expect(await first(query)).toBe('Muehlebachstrasse 8, 8008 Zürich');
      }
      // Being typed with the transliteration.
      expect(await first('Muell')).toBe('Müllerstrasse 10, 8004 Zürich');
      expect((await service().municipality(parseRequest(MunicipalityQueryRequest, { query: 'Zuerich' }))).map((p) => p.municipality)).toEqual(['Zürich']);
      // The municipality refiner as a strict filter meets the same forms.
      for (const municipality of ['Zuerich', 'Zurich', 'Zürich']) {
        const r = await service().query(parseRequest(PlaceQueryRequest, { query: 'Mullerstrasse 10', municipality, contextType: 'strict' }));
        expect(r.map((p) => p.formatted_address)).toEqual(['Müllerstrasse 10, 8004 Zürich']);
      }
    });

    it('expands the German compounds ...g. to gasse and ...pl. to platz', async () => {
      expect(await first('Schulg. 4')).toBe('Schulgasse 4, 1180 Wien');
      expect(await first('Stephanspl. 1')).toBe('Stephansplatz 1, 1010 Wien');
      expect(await first('Bäreng. 22')).toBe('Bärengasse 22, 8001 Zürich');
    });

    it('folds the Polish letters ą ć ę ł ń ó ś ź ż', async () => {
      expect(await first('Piotrkowska 104 lodz')).toBe('ul. Piotrkowska 104, 90-926 Łódź');
      expect(await first('zrodlowa 3')).toBe('ul. Źródłowa 3, 91-733 Łódź');
      expect(await first('KSIEZY MLYN 14')).toBe('ul. Księży Młyn 14, 90-345 Łódź');
      expect(await first('Księży Młyn 14 Łódź')).toBe('ul. Księży Młyn 14, 90-345 Łódź');
      expect(await first('os. Tysiaclecia 10')).toBe('os. Tysiąclecia 10, 40-127 Katowice');
    });

    it('reads the Polish street prefixes ul. (dropped), al. (aleja, aleje), pl. (plac) and os. (osiedle)', async () => {
      for (const query of ['Marszałkowska 12', 'ul. Marszałkowska 12', 'ul Marszalkowska 12/3', 'marszałkowska 12/3 warszawa']) {
        expect(await first(query)).toBe('ul. Marszałkowska 12/3, 00-950 Warszawa');
      }
      for (const query of ['al. Jana', 'al. Jana Pawła II 5', 'aleja Jana Pawła 5', 'Jana Pawla II 5']) expect(await first(query)).toBe('al. Jana Pawła II 5, 00-828 Warszawa');
      expect(await first('Aleje Jerozolimskie 44')).toBe('al. Jerozolimskie 44, 00-024 Warszawa');
      for (const query of ['pl. Grunwaldzki 3', 'plac Grunwaldzki 3', 'Grunwaldzki 3']) expect(await first(query)).toBe('pl. Grunwaldzki 3, 50-363 Wrocław');
      for (const query of ['os. Tysiąclecia 10', 'osiedle Tysiąclecia 10']) expect(await first(query)).toBe('os. Tysiąclecia 10, 40-127 Katowice');
      // A village without streets: the locality and the number, as in CZ.
      expect(await first('Zalesie 12')).toBe('Zalesie 12, 05-500 Piaseczno');
      const hl = (await q('al. Jana Pawła II 5'))[0].highlight;
      expect(hl).toBe('<em>al</em>. <em>Jana</em> <em>Pawła</em> <em>II</em> <em>5</em>, 00-828 Warszawa');
    });

    it('matches Polish postal codes with or without the dash, whole or partial', async () => {
      for (const query of ['00-950', '00950']) expect(await postal(query)).toEqual(['00-950']);
      for (const query of ['00-9', '009', '00 9']) expect(await postal(query)).toEqual(['00-950', '00-951']);
      for (const query of ['Marszałkowska 12, 00-950 Warszawa', 'Marszałkowska 12 00950', 'Warszawa Marszałkowska 00-9', 'Marszałkowska 009']) {
        expect(await first(query)).toBe('ul. Marszałkowska 12/3, 00-950 Warszawa');
      }
      expect((await q('Marszałkowska 12 00-950'))[0].highlight).toBe('ul. <em>Marszałkowska</em> <em>12</em>/3, <em>00-950</em> Warszawa');
    });

    it('ignores French and Italian accents', async () => {
      for (const query of ['rue du rhone 5 geneve', 'Rue du Rhône 5, Genève', 'RUE DU RHONE 5']) expect(await first(query)).toBe('Rue du Rhône 5, 1204 Genève');
      for (const query of ['via citta vecchia 3', 'Via Città Vecchia 3 Locarno']) expect(await first(query)).toBe('Via Città Vecchia 3, 6600 Locarno');
      expect((await service().municipality(parseRequest(MunicipalityQueryRequest, { query: 'geneve' }))).map((p) => p.municipality)).toEqual(['Genève']);
    });

    it('reads a four-digit number as a postal code or a house number', async () => {
      expect(await first('8001 Zürich')).toMatch(/, 8001 Zürich$/);
      expect(await first('Zürich 8001')).toMatch(/, 8001 Zürich$/);
      expect(await first('Bahnhofstrasse 1, 8001 Zürich')).toBe('Bahnhofstrasse 1, 8001 Zürich');
      expect(await first('Städtle 1 9490 Vaduz')).toBe('Städtle 1, 9490 Vaduz');
      expect(await first('Vaduz 9490 ')).toMatch(/, 9490 Vaduz$/);
      expect((await q('1010 Wien')).every((p) => p.postal_code === '1010')).toBe(true);
      // CZ/SK house numbers of four digits are unchanged, and a number both a CH postal code and a CZ house number finds both.
      expect(await first('Kijevská 2125 Svitavy')).toBe('Kijevská 2125/13c, 568 02 Svitavy');
      expect(await first('Fügnerovo nám. 2428')).toBe('Fügnerovo nám. 2428, 397 01 Písek');
      expect(new Set(texts(await q('2125 ')))).toEqual(new Set(['Kijevská 2125/13c, 568 02 Svitavy', 'Rue du Temple 12, 2125 La Brévine']));
      expect((await q('Zürich 8001'))[0].highlight).toMatch(/<em>8001<\/em> <em>Zürich<\/em>$/);
      expect(await postal('8001')).toEqual(['8001']);
      expect(await postal('80')).toEqual(['8001', '8004']);
    });

    it('reads whole house numbers written after the street (12, 12/3/5), whole number first', async () => {
      expect(texts(await q('Hauptstraße 12'))).toEqual(['Hauptstraße 12, 1010 Wien', 'Hauptstraße 12/3/5, 1010 Wien']);
      expect(texts(await q('Hauptstraße 12/3'))).toEqual(['Hauptstraße 12/3/5, 1010 Wien']);
      expect(texts(await q('Hauptstraße 12/3/5 '))).toEqual(['Hauptstraße 12/3/5, 1010 Wien']);
      expect(texts(await q('Hauptstraße 12/4 '))).toEqual([]);
      expect(texts(await q('Marszałkowska 1'))).toEqual(['ul. Marszałkowska 12/3, 00-950 Warszawa', 'ul. Marszałkowska 140, 00-061 Warszawa']);
    });

    it('formats PL, AT, CH and LI addresses in their postal convention', async () => {
      const [pl] = await q('Marszałkowska 12/3');
      expect(pl).toMatchObject({
        formatted_address: 'ul. Marszałkowska 12/3, 00-950 Warszawa', formatted_street: 'ul. Marszałkowska 12/3', formatted_number: '12/3',
        street: 'ul. Marszałkowska', street_number: null, building_number: '12/3', postal_code: '00-950', municipality: 'Warszawa',
        county: 'Warszawa', region: 'mazowieckie', country: 'PL', formatted_country: 'Polska',
      });
      const [at] = await q('Hauptstraße 12/3/5');
      expect(at).toMatchObject({ formatted_address: 'Hauptstraße 12/3/5, 1010 Wien', formatted_number: '12/3/5', street_number: null, country: 'AT', region: 'Wien' });
      const [ch] = await q('Bahnhofstrasse 1');
      expect(ch).toMatchObject({ formatted_address: 'Bahnhofstrasse 1, 8001 Zürich', building_number: '1', postal_code: '8001', region: 'Zürich', country: 'CH' });
      const [li] = await q('Städtle 1');
      expect(li).toMatchObject({ formatted_address: 'Städtle 1, 9490 Vaduz', county: null, region: 'Oberland', country: 'LI' });
      expect(li.place_id.startsWith('li_a')).toBe(true);
    });

    it('finds PL, AT, CH and LI streets, municipalities and postal codes', async () => {
      const streets = async (query: string) => (await service().street(parseRequest(StreetQueryRequest, { query }))).map((p) => p.street);
      expect(await streets('Hauptstr.')).toEqual(['Hauptstraße']);
      expect(await streets('bahnhofstr')).toEqual(['Bahnhofstrasse']);
      expect(await streets('Marszałk')).toEqual(['ul. Marszałkowska']);
      expect(await streets('stadtle')).toEqual(['Städtle']);
      expect((await service().street(parseRequest(StreetQueryRequest, { query: 'Hauptstrasse' })))[0].highlight).toBe('<em>Hauptstraße</em>');
      expect((await service().street(parseRequest(StreetQueryRequest, { query: 'Hauptstra' })))[0].highlight).toBe('<em>Hauptstra</em>ße');
      const municipalities = async (query: string) => (await service().municipality(parseRequest(MunicipalityQueryRequest, { query }))).map((p) => p.municipality);
      expect(await municipalities('lodz')).toEqual(['Łódź']);
      expect(await municipalities('Wien')).toEqual(['Wien']);
      expect(await municipalities('vad')).toEqual(['Vaduz']);
      expect(await postal('9490')).toEqual(['9490']);
      expect((await service().postal(parseRequest(PostalQueryRequest, { query: '00-9' })))[0].highlight).toBe('<em>00-9</em>50');
    });
  });
}
