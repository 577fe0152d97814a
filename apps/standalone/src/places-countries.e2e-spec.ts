import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CountryCode } from '@lookup/contracts';
import { loadCatalogue, PlaceDoc, ruianPlaceDocs, sampleAddressSources, sampleRegisterDocs, sampleRegisters, sampleSources } from '@lookup/places';
import { loadConfig } from '@lookup/shared/config';
import { GatewayUnderTest, sdk, tempDir } from '@lookup/shared/testing';
import { createStandaloneApp } from './standalone';

type P = Record<string, unknown>;
type AreaKind = 'region' | 'county' | 'municipality';
const AREA_KINDS: AreaKind[] = ['region', 'county', 'municipality'];

/** Every document the standalone start writes for a country's register sample (CZ: RUIAN; PL, AT, CH, LI: their importers; SK: none). */
async function registerSampleDocs(cc: CountryCode): Promise<PlaceDoc[]> {
  const docs: PlaceDoc[] = [];
  if (cc === 'CZ') {
    const s = sampleAddressSources();
    for await (const batch of ruianPlaceDocs({ zipOrDir: s.zipOrDir, catalogue: { pscList: s.pscList } })) docs.push(...batch);
    return docs;
  }
  const sample = sampleRegisters().find((r) => r.country === cc);
  if (!sample) return docs;
  const { catalogue } = await loadCatalogue(sampleSources()[sample.country]);
  return (await sampleRegisterDocs(sample, catalogue)).docs;
}

/** The areas a country must list: what the catalogue loader gives for the bundled fixture, plus those its register sample adds. */
async function expectedAreas(cc: CountryCode): Promise<Record<AreaKind, string[]>> {
  const { docs } = await loadCatalogue(sampleSources()[cc as keyof ReturnType<typeof sampleSources>]);
  const all = [...docs, ...(await registerSampleDocs(cc))];
  const ids = (kind: AreaKind) => [...new Set(all.filter((d) => d.object === kind).map((d) => d.place_id))].sort();
  return { region: ids('region'), county: ids('county'), municipality: ids('municipality') };
}

/**
 * Standalone, first start on an empty DATA_DIR (what `npm start` does): the bundled catalogues of
 * all six countries and the PL, AT, CH and LI register samples, asked through the official Node
 * client. Fields are checked against each country's convention (formatted address, postal code
 * in the national written form, region/county/municipality names from the catalogue or the register's own tables).
 */
describe('standalone places of PL, AT, CH and LI through swiftyper-node', () => {
  const dir = tempDir('places-countries-');
  let app: NestFastifyApplication;
  const gw = {} as GatewayUnderTest;
  const places = () => sdk(gw, gw.key).places;
  const query = async (q: string, country: string) => (await places().query({ query: q, country })) as P[];

  beforeAll(async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: 'countries-e2e-key' });
    app = await createStandaloneApp(config);
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    Object.assign(gw, { baseUrl: `http://127.0.0.1:${port}`, port, key: 'countries-e2e-key', createKey: async () => 'unused' });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    dir.remove();
  });

  describe('catalogues of all six countries', () => {
    it.each(['CZ', 'SK', 'PL', 'AT', 'CH', 'LI'] as CountryCode[])('%s: places.regions, counties and municipalities list the loaded areas', async (cc) => {
      const expected = await expectedAreas(cc);
      const listed = {
        region: (await places().regions({ country: cc })) as P[],
        county: (await places().counties({ country: cc })) as P[],
        municipality: (await places().municipalities({ country: cc })) as P[],
      };
      for (const kind of AREA_KINDS) {
        expect({ kind, ids: listed[kind].map((p) => p['place_id']).sort() }).toEqual({ kind, ids: expected[kind] });
        for (const p of listed[kind]) expect(p).toMatchObject({ country: cc, object: kind });
      }
      expect(expected.region.length).toBeGreaterThan(0);
      expect(expected.municipality.length).toBeGreaterThan(0);
    });

    it('names the areas as the catalogue and the registers do', async () => {
      const names = async (cc: string, kind: 'regions' | 'counties') => ((await places()[kind]!({ country: cc })) as P[]).map((p) => p['name']);
      expect(await names('LI', 'regions')).toEqual(['Oberland', 'Unterland']);
      expect(await names('LI', 'counties')).toEqual([]);
      expect(await names('AT', 'regions')).toEqual(expect.arrayContaining(['Burgenland', 'Salzburg', 'Tirol', 'Wien']));
      expect(await names('CH', 'counties')).toEqual(expect.arrayContaining(['Zürich', 'Lugano']));
      expect(await names('PL', 'regions')).toEqual(expect.arrayContaining(['mazowieckie']));
      const at = (await places().municipalities({ country: 'AT' })) as P[];
      // Bezirk 103 comes from the sample's GeoNames catalogue (fixtures/sample/geonames/AT.txt).
      const leithaprodersdorf = at.find((m) => m['municipality'] === 'Leithaprodersdorf');
      expect(leithaprodersdorf).toMatchObject({ place_id: 'at_m10306', region: 'Burgenland', county: 'Eisenstadt-Umgebung' });
      const li = (await places().municipalities({ country: 'LI' })) as P[];
      const mauren = li.find((m) => m['municipality'] === 'Mauren');
      expect(mauren).toMatchObject({ place_id: 'li_m7004', region: 'Unterland' });
      expect(mauren).toHaveProperty('county', null);
      expect(await places().detail('li_m7004')).toHaveProperty('county', null);
    });
  });

  describe('Austria (BEV Adressregister sample)', () => {
    it('places.query finds a sub-address written Hauptstraße 12/3 with its Bezirk and Bundesland', async () => {
      const [hit] = await query('Hauptstraße 12/3 Wien', 'AT');
      expect(hit).toMatchObject({
        place_id: 'at_a6100001-002',
        object: 'address',
        formatted_address: 'Hauptstraße 12/3, 1010 Wien',
        street: 'Hauptstraße',
        street_number: null,
        building_number: '12/3',
        postal_code: '1010',
        municipality: 'Wien',
        county: 'Wien (Stadt)',
        region: 'Wien',
        country: 'AT',
      });
    });

    it('places.query gives a village without streets as <Ortschaft> <number>, and the changed record in its later version', async () => {
      expect((await query('Leithaprodersdorf 27', 'AT'))[0]).toMatchObject({ formatted_address: 'Leithaprodersdorf 27, 2443 Leithaprodersdorf', street: null, district: 'Leithaprodersdorf', county: 'Eisenstadt-Umgebung', region: 'Burgenland' });
      expect((await query('Stephansplatz 5a', 'AT'))[0]).toMatchObject({ place_id: 'at_a6100005', building_number: '5a' });
      // `strasse` finds `straße`, `str.` too.
      expect((await query('Hauptstrasse 12/3', 'AT'))[0]).toMatchObject({ place_id: 'at_a6100001-002' });
      expect((await query('Hauptstr. 12 Wien', 'AT'))[0]).toMatchObject({ formatted_address: 'Hauptstraße 12, 1010 Wien' });
    });

    it('places.street, municipality and postal', async () => {
      expect((await places().street({ query: 'Getreideg', country: 'AT' })) as P[]).toMatchObject([{ object: 'street', street: 'Getreidegasse', municipality: 'Salzburg' }]);
      expect(((await places().municipality({ query: 'Innsbruck', country: 'AT' })) as P[])[0]).toMatchObject({ place_id: 'at_m70101', municipality: 'Innsbruck', county: 'Innsbruck Stadt', region: 'Tirol' });
      expect((await places().postal({ query: '2443', country: 'AT' })) as P[]).toMatchObject([{ object: 'postal_code', postal_code: '2443', municipality: 'Leithaprodersdorf' }]);
    });

    it('places.reverse finds the address at its converted Gauss-Krueger position, and places.detail returns it', async () => {
      const [hit] = await query('Maria-Theresien-Straße 18', 'AT');
      const ll = hit!['latlng'] as { lat: number; lng: number };
      const near = (await places().reverse({ lat: String(ll.lat), lng: String(ll.lng), country: 'AT' })) as P[];
      expect(near[0]).toMatchObject({ place_id: hit!['place_id'], formatted_address: 'Maria-Theresien-Straße 18, 6020 Innsbruck', county: 'Innsbruck Stadt', region: 'Tirol' });
      expect((await places().detail(hit!['place_id'])) as P).toMatchObject({ place_id: hit!['place_id'], formatted_address: hit!['formatted_address'], postal_code: '6020' });
    });
  });

  describe('Switzerland (amtliches Gebäudeadressverzeichnis sample)', () => {
    it('places.query finds Italian, French and German street names with district and canton', async () => {
      expect((await query('Via Nassa 14', 'CH'))[0]).toMatchObject({
        place_id: 'ch_a190000005',
        formatted_address: 'Via Nassa 14, 6900 Lugano',
        street: 'Via Nassa',
        street_number: null,
        building_number: '14',
        postal_code: '6900',
        municipality: 'Lugano',
        county: 'Lugano',
        region: 'Ticino',
        country: 'CH',
      });
      expect((await query('Rue du Rhône 5', 'CH'))[0]).toMatchObject({ formatted_address: 'Rue du Rhône 5, 1204 Genève', region: 'Genève' });
      // The postal locality (Wabern) is not the municipality (Köniz).
      expect((await query('Seftigenstrasse 264', 'CH'))[0]).toMatchObject({ formatted_address: 'Seftigenstrasse 264, 3084 Wabern', municipality: 'Köniz', district: 'Wabern' });
      // Without accents; a bilingual label found by either name; the replaced version (Via Nassa 12) is gone.
      expect((await query('rue du rhone 5', 'CH'))[0]).toMatchObject({ formatted_address: 'Rue du Rhône 5, 1204 Genève' });
      for (const q of ['Marktgasse 12a', 'Rue du Marché 12a']) expect((await query(q, 'CH'))[0]).toMatchObject({ formatted_address: 'Marktgasse / Rue du Marché 12a, 2502 Biel/Bienne' });
      expect(await query('Via Nassa 12', 'CH')).toEqual([]);
    });

    it('places.street, municipality and postal', async () => {
      const streets = (await places().street({ query: 'Bahnhofstrasse', country: 'CH' })) as P[];
      expect(streets.map((s) => s['municipality']).sort()).toEqual(['Aarau', 'Zürich']);
      expect(((await places().municipality({ query: 'Aarau', country: 'CH' })) as P[])[0]).toMatchObject({ place_id: 'ch_m4001', county: 'Aarau', region: 'Aargau' });
      const codes = ((await places().postal({ query: '800', country: 'CH' })) as P[]).map((p) => p['postal_code']).sort();
      expect(codes).toEqual(['8001', '8002']); // 8001 from the register sample, 8002 from GeoNames only
    });

    it('places.reverse and places.detail', async () => {
      const [hit] = await query('Bahnhofstrasse 10 Zürich', 'CH');
      expect(hit).toMatchObject({ formatted_address: 'Bahnhofstrasse 10, 8001 Zürich' });
      const ll = hit!['latlng'] as { lat: number; lng: number };
      const near = (await places().reverse({ lat: String(ll.lat), lng: String(ll.lng), country: 'CH' })) as P[];
      expect(near[0]!['place_id']).toBe(hit!['place_id']);
      expect((await places().detail(hit!['place_id'])) as P).toMatchObject({ formatted_address: 'Bahnhofstrasse 10, 8001 Zürich', county: 'Zürich', region: 'Zürich' });
    });
  });

  describe('Liechtenstein (OSM extract sample)', () => {
    it('places.query finds addresses with the Oberland/Unterland region and no county', async () => {
      expect((await query('Städtle 12', 'LI'))[0]).toMatchObject({
        place_id: 'li_an1001',
        formatted_address: 'Städtle 12, 9490 Vaduz',
        street: 'Städtle',
        building_number: '12',
        postal_code: '9490',
        municipality: 'Vaduz',
        county: null,
        region: 'Oberland',
        country: 'LI',
      });
      // An Ortsteil without streets: <Ortsteil> <number>, and the post office of Triesenberg.
      expect((await query('Malbun 21', 'LI'))[0]).toMatchObject({ formatted_address: 'Malbun 21, 9497 Triesenberg', street: null, district: 'Malbun', municipality: 'Triesenberg' });
      expect((await query('Churer Strasse 60', 'LI'))[0]).toMatchObject({ formatted_address: 'Churer Strasse 60, 9485 Nendeln', municipality: 'Eschen', region: 'Unterland' });
      // Umlaut folding: `a` and `ae` both find `ä`.
      for (const q of ['Stadtle 12', 'Staedtle 12']) expect((await query(q, 'LI'))[0]).toMatchObject({ place_id: 'li_an1001' });
      expect((await query('Aeulestrasse 30', 'LI'))[0]).toMatchObject({ formatted_address: 'Äulestrasse 30, 9490 Vaduz' });
    });

    it('places.street, municipality and postal', async () => {
      expect((await places().street({ query: 'Peter-Kaiser', country: 'LI' })) as P[]).toMatchObject([{ street: 'Peter-Kaiser-Strasse', municipality: 'Mauren' }]);
      expect(((await places().municipality({ query: 'Balzers', country: 'LI' })) as P[])[0]).toMatchObject({ place_id: 'li_m7001', county: null, region: 'Oberland' });
      expect((await places().postal({ query: '9494', country: 'LI' })) as P[]).toMatchObject([{ postal_code: '9494', municipality: 'Schaan' }]);
    });

    it('places.reverse and places.detail', async () => {
      // About 3 m north of the sample's Landstrasse 40 (the default distance is 10 m); 70 m away only with distinct=100.
      const near = (await places().reverse({ lat: '47.16603', lng: '9.5095', country: 'LI' })) as P[];
      expect(near[0]).toMatchObject({ place_id: 'li_an1003', formatted_address: 'Landstrasse 40, 9494 Schaan' });
      expect((await places().reverse({ lat: '47.1666', lng: '9.5093', country: 'LI' })) as P[]).toEqual([]);
      expect(((await places().reverse({ lat: '47.1666', lng: '9.5093', country: 'LI', distinct: '100' })) as P[])[0]).toMatchObject({ place_id: 'li_an1003' });
      expect((await places().detail('li_an1003')) as P).toMatchObject({ formatted_address: 'Landstrasse 40, 9494 Schaan', region: 'Oberland', county: null });
    });
  });

  describe('Poland (PRG address points sample)', () => {
    it('places.query keeps the street prefix and writes the postal code NN-NNN', async () => {
      expect((await query('ul. Marszałkowska 10', 'PL'))[0]).toMatchObject({
        formatted_address: 'ul. Marszałkowska 10, 00-950 Warszawa',
        street: 'ul. Marszałkowska',
        street_number: null,
        building_number: '10',
        postal_code: '00-950',
        municipality: 'Warszawa',
        region: 'mazowieckie',
        country: 'PL',
      });
      // Without the prefix and the Polish letters.
      for (const q of ['Marszalkowska 10', 'ul Marszałkowska 10']) expect((await query(q, 'PL'))[0]).toMatchObject({ formatted_address: 'ul. Marszałkowska 10, 00-950 Warszawa' });
      // A village without streets: <miejscowość> <number>.
      expect((await query('Zalesie 12', 'PL'))[0]).toMatchObject({ formatted_address: 'Zalesie 12, 05-540 Zalesie', street: null, district: 'Zalesie', municipality: 'Piaseczno', county: 'powiat piaseczyński' });
    });

    it('places.street, municipality and postal (with or without the dash)', async () => {
      expect(((await places().street({ query: 'Marszałk', country: 'PL' })) as P[])[0]).toMatchObject({ street: 'ul. Marszałkowska', municipality: 'Warszawa' });
      // TERYT gmina 146501 in both the GeoNames and the PRG sample: one municipality, its county the city powiat.
      expect((await places().municipality({ query: 'Warszawa', country: 'PL' })) as P[]).toMatchObject([{ place_id: 'pl_m146501', municipality: 'Warszawa', county: 'Warszawa', region: 'mazowieckie' }]);
      for (const q of ['05-540', '05540']) expect(((await places().postal({ query: q, country: 'PL' })) as P[])[0]).toMatchObject({ postal_code: '05-540', municipality: 'Piaseczno' });
    });

    it('places.reverse and places.detail', async () => {
      const [hit] = await query('al. Jana Pawła II 1-3', 'PL');
      expect(hit).toMatchObject({ formatted_address: 'al. Jana Pawła II 1-3, 00-951 Warszawa', building_number: '1-3' });
      const ll = hit!['latlng'] as { lat: number; lng: number };
      const near = (await places().reverse({ lat: String(ll.lat), lng: String(ll.lng), country: 'PL' })) as P[];
      expect(near[0]!['place_id']).toBe(hit!['place_id']);
      expect((await places().detail(hit!['place_id'])) as P).toMatchObject({ formatted_address: hit!['formatted_address'], county: 'Warszawa', region: 'mazowieckie' });
    });
  });
});
