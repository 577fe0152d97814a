import { readFileSync } from 'node:fs';
import { CountryCode, formatPostalCode, MunicipalityQueryRequest, parseRequest, PostalQueryRequest } from '@lookup/contracts';
import { sharedData } from '@lookup/shared/testing';
import { CatalogueService } from '../../../catalogue/catalogue.service';
import { importCatalogueAndPostalCodes } from '../../../catalogue/catalogue.import';
import { CatalogueRequest } from '../../catalogue.loader';
import { PlacesSearchService } from '../../../search/places-search.service';
import { PlacesStore } from '../../../store/places.store';
import { CH_CANTONS } from '../../ch/cantons';

export const GEONAMES_COUNTRIES = ['CZ', 'SK', 'PL', 'AT', 'CH', 'LI'] as const;
type Cc = (typeof GEONAMES_COUNTRIES)[number];

export const geonamesFile = (cc: string) => sharedData(`geonames/${cc}.txt`);
export const GEONAMES_DATA = [...GEONAMES_COUNTRIES.map(geonamesFile), sharedData('cz/psc-list.csv'), sharedData('sk/davky.zip')];

const DIGITS: Record<Cc, number> = { CZ: 5, SK: 5, PL: 5, AT: 4, CH: 4, LI: 4 };

interface Expected {
  regions: number | null;
  counties: number | null;
  municipalities: number | null;
  /** Distinct postal codes. */
  postalCodes: number;
  /** The distinct codes themselves (digits), sorted. */
  codes: string[];
  /** postal code -> names of the municipalities its rows name (as the API should show them). */
  municipalitiesOf: Map<string, Set<string>>;
}

/**
 * What the import must give, read from the file here with plain splits and the rules of
 * model.md, not with the importer's code. CZ and SK catalogues come from their registers
 * (psc-list.csv; the Slovak batches are not re-read here: their regions are GeoNames' admin1).
 */
function expected(cc: Cc): Expected {
  const rows = readFileSync(geonamesFile(cc), 'utf8').split('\n').filter((l) => l.trim()).map((l) => l.split('\t'));
  const distinct = (f: (c: string[]) => string | null) => new Set(rows.map(f).filter((v): v is string => !!v)).size;
  const postal = (c: string[]) => c[1]!.replace(/\D/g, '');
  const ok = rows.filter((c) => postal(c).length === DIGITS[cc]);
  const municipalitiesOf = new Map<string, Set<string>>();
  // PL: a gmina GeoNames names with no place of the file (`Warsaw`) whose rows all name one place (`Warszawa`) is that place.
  const plPlaces = new Set(rows.map((c) => c[2]!.toLocaleLowerCase('pl')));
  const plGminaPlaces = new Map<string, Set<string>>();
  if (cc === 'PL') for (const c of rows) if (c[8]) plGminaPlaces.set(c[8], (plGminaPlaces.get(c[8]) ?? new Set()).add(c[2]!));
  const plGminaBare = (c: string[]): string => {
    const n = c[7]!.replace(/^gmina /i, '');
    const places = plGminaPlaces.get(c[8]!)!;
    return !plPlaces.has(n.toLocaleLowerCase('pl')) && places.size === 1 ? [...places][0]! : n;
  };
  // PL: of two gminas of one powiat with one name, the one with no place of that name is the rural one around the town.
  const plSameName = new Map<string, Set<string>>();
  if (cc === 'PL') for (const c of rows) if (c[8]) plSameName.set(`${c[6]}|${plGminaBare(c)}`, (plSameName.get(`${c[6]}|${plGminaBare(c)}`) ?? new Set()).add(c[8]));
  const plGmina = (c: string[]): string => {
    const n = plGminaBare(c);
    const pair = [...plSameName.get(`${c[6]}|${n}`)!];
    const withTown = pair.filter((g) => plGminaPlaces.get(g)!.has(n));
    return pair.length > 1 && withTown.length === 1 && withTown[0] !== c[8] ? `${n} (gmina wiejska)` : n;
  };
  const name = (c: string[]): string | null => {
    if (cc === 'PL') return c[8] ? plGmina(c) : null;
    if (cc === 'AT') return c[8]!.length === 3 ? 'Wien' : c[7]!;
    if (cc === 'CH') return c[7]!;
    if (cc === 'LI') return c[3]!;
    return null;
  };
  for (const c of ok) {
    const n = name(c);
    if (!n) continue;
    const set = municipalitiesOf.get(postal(c)) ?? new Set<string>();
    set.add(n);
    municipalitiesOf.set(postal(c), set);
  }
  const postalCodes = distinct((c) => (postal(c).length === DIGITS[cc] ? postal(c) : null));
  const codes = [...new Set(ok.map(postal))].sort();
  switch (cc) {
    case 'PL':
      return { regions: distinct((c) => c[6]?.slice(0, 2) || null), counties: distinct((c) => c[6] || null), municipalities: distinct((c) => c[8] || null), postalCodes, codes, municipalitiesOf };
    case 'AT':
      return { regions: distinct((c) => c[4]!), counties: distinct((c) => c[6]!), municipalities: distinct((c) => (c[8]!.length === 3 ? '90001' : c[8]!)), postalCodes, codes, municipalitiesOf };
    case 'CH':
    {
      // GeoNames keeps a merged municipality's old BFS number on some rows (Horgen 133 and 295): a number is not counted
      // when a higher one carries the same municipality name in the same district.
      const highest = new Map<string, number>();
      for (const c of ok) highest.set(`${c[6]}|${c[7]}`, Math.max(highest.get(`${c[6]}|${c[7]}`) ?? 0, Number(c[8])));
      const superseded = new Set(ok.filter((c) => Number(c[8]) < highest.get(`${c[6]}|${c[7]}`)!).map((c) => c[8]!));
      return { regions: distinct((c) => c[4]!), counties: distinct((c) => c[6]!), municipalities: distinct((c) => c[8]!) - superseded.size, postalCodes, codes, municipalitiesOf };
    }
    case 'LI':
      return { regions: 2, counties: 0, municipalities: distinct((c) => c[3]!), postalCodes, codes, municipalitiesOf };
    case 'CZ': {
      const psc = readFileSync(sharedData('cz/psc-list.csv'), 'utf8').split('\n').slice(1).filter((l) => l.trim()).map((l) => l.split(','));
      const d = (i: number) => new Set(psc.map((c) => c[i])).size;
      return { regions: d(7), counties: d(5), municipalities: d(3), postalCodes, codes, municipalitiesOf };
    }
    case 'SK':
      return { regions: distinct((c) => c[4]!), counties: null, municipalities: null, postalCodes, codes, municipalitiesOf };
  }
}

function sources(cc: Cc): CatalogueRequest {
  if (cc === 'CZ') return { country: 'CZ', sources: { pscList: sharedData('cz/psc-list.csv'), geonames: geonamesFile('CZ') } };
  if (cc === 'SK') return { country: 'SK', sources: { register: sharedData('sk/davky.zip'), geonames: geonamesFile('SK') } };
  return { country: cc, sources: { geonames: geonamesFile(cc) } };
}

/** Every `step`-th postal code of the file, for the queries. */
function sample<T>(items: T[], n: number): T[] {
  const step = Math.max(1, Math.floor(items.length / n));
  return items.filter((_, i) => i % step === 0).slice(0, n);
}

/**
 * The six GeoNames files through the catalogue import (CLI path) into an empty store, then the
 * catalogue endpoints, `/postal` and `/municipality` per country. Same expectations on each engine.
 */
export function geonamesDataContract(engine: string, makeStore: () => Promise<PlacesStore>, dispose: (s: PlacesStore) => Promise<void>): void {
  describe(`GeoNames files of all six countries (${engine})`, () => {
    let store: PlacesStore;
    let catalogue: CatalogueService;
    let search: PlacesSearchService;

    beforeAll(async () => {
      store = await makeStore();
      catalogue = new CatalogueService(store);
      search = new PlacesSearchService(store);
      for (const cc of GEONAMES_COUNTRIES) {
        const t0 = Date.now();
        const r = await importCatalogueAndPostalCodes(store, sources(cc), 'test');
        // eslint-disable-next-line no-console
        console.log(`${engine} ${cc}: ${r.catalogue.regions}/${r.catalogue.counties}/${r.catalogue.municipalities} catalogue, ${r.geonames?.report.postalCodes} postal codes (${r.geonames?.report.withoutMunicipality} without municipality, ${r.geonames?.report.errors.length} reported) in ${Date.now() - t0} ms`);
      }
    }, 600_000);

    afterAll(async () => {
      await dispose(store);
    });

    describe.each(GEONAMES_COUNTRIES.map((cc) => [cc]))('%s', (cc) => {
      const want = expected(cc);

      it('serves the whole catalogue: regions, counties, municipalities', async () => {
        const regions = await catalogue.regions(cc as CountryCode);
        const counties = await catalogue.counties(cc as CountryCode);
        const municipalities = await catalogue.municipalities(cc as CountryCode);
        expect(regions.length).toBe(want.regions);
        if (want.counties !== null) expect(counties.length).toBe(want.counties);
        else expect(counties.length).toBeGreaterThan(0);
        if (want.municipalities !== null) expect(municipalities.length).toBe(want.municipalities);
        else expect(municipalities.length).toBeGreaterThan(0);
        const regionIds = new Set(regions.map((r) => r.place_id));
        if (cc === 'PL') {
          // Polish names, as the API shows them: GeoNames' `Leszno_County`, `Warsaw West County` and `Warsaw` are not.
          const names = [...regions.map((r) => r.name), ...counties.map((c) => c.name), ...municipalities.flatMap((m) => [m.municipality!, m.county ?? ''])];
          expect(names.filter((n) => /_|County|Warsaw/.test(n))).toEqual([]);
          expect(municipalities.find((m) => m.place_id === 'pl_m146501')).toMatchObject({ municipality: 'Warszawa', county: 'Warszawa', region: 'mazowieckie' });
          // The town and the rural gmina around it, in one powiat: told apart by name (142 such pairs in the file).
          expect(['pl_m120101', 'pl_m120102'].map((id) => municipalities.find((m) => m.place_id === id)?.municipality)).toEqual(['Bochnia', 'Bochnia (gmina wiejska)']);
          const inCounty = new Map<string, string[]>();
          for (const m of municipalities) inCounty.set(`${m.county} ${m.municipality}`, [...(inCounty.get(`${m.county} ${m.municipality}`) ?? []), m.place_id]);
          expect([...inCounty].filter(([, ids]) => ids.length > 1)).toEqual([]);
        }
        if (cc === 'CH') {
          // Cantons by BFS's name (CH_CANTONS), districts bare: GeoNames' `Canton de Berne`, `Aigle District`, `Bezirk Zürich`, `Geneva` are not.
          expect(Object.fromEntries(regions.map((r) => [r.place_id, r.name]))).toEqual(Object.fromEntries(Object.entries(CH_CANTONS).map(([abbr, name]) => [`ch_r${abbr.toLowerCase()}`, name])));
          const names = [...counties.map((c) => c.name), ...municipalities.flatMap((m) => [m.county ?? '', m.region ?? ''])];
          expect(names.filter((n) => /District|Distretto|Canton|Kanton|Bezirk|Wahlkreis|Verwaltungskreis|Region |Geneva|Lucerne|Inner Rhodes/.test(n))).toEqual([]);
          const county = (id: string) => counties.find((c) => c.place_id === id)?.name;
          expect(['ch_c101', 'ch_c246', 'ch_c311', 'ch_c1005', 'ch_c1600', 'ch_c2105', 'ch_c2221', 'ch_c2500'].map(county)).toEqual([
            'Affoltern',
            'Bern-Mittelland',
            'Luzern-Stadt',
            'See / Lac',
            'Appenzell Innerrhoden',
            'Lugano',
            'Aigle',
            'Genève',
          ]);
          expect(municipalities.find((m) => m.place_id === 'ch_m351')).toMatchObject({ municipality: 'Bern', county: 'Bern-Mittelland', region: 'Bern / Berne' });
        }
        for (const r of regions) expect(r).toMatchObject({ object: 'region', country: cc });
        for (const m of municipalities) {
          // CZ/SK municipalities get positions by matching GeoNames to the register; a few stay unplaced.
          if (cc !== 'CZ' && cc !== 'SK') expect(m.latlng).not.toBeNull();
          expect(regionIds.has((await store.get(m.place_id))!.region_id!)).toBe(true);
        }
      }, 120_000);

      it('has one postal-code document per code in the file', async () => {
        expect(await store.count(cc as CountryCode, 'postal_code')).toBe(want.postalCodes);
      });

      it('answers /postal with the code and its municipality', async () => {
        const codes = sample([...want.municipalitiesOf.keys()].sort(), 20);
        const all = codes.length ? codes : [];
        for (const code of all) {
          const r = await search.postal(parseRequest(PostalQueryRequest, { query: code, country: cc }));
          const hit = r.find((p) => p.postal_code === formatPostalCode(cc as CountryCode, code));
          expect(hit).toBeDefined();
          expect(want.municipalitiesOf.get(code)).toContain(hit!.municipality);
        }
        if (cc === 'CZ' || cc === 'SK') {
          // Their municipalities come from the register catalogue: every sampled code is found and placed.
          const file = readFileSync(geonamesFile(cc), 'utf8').split('\n').filter((l) => l.trim()).map((l) => l.split('\t')[1]!.replace(/\D/g, ''));
          let placed = 0;
          const picked = sample([...new Set(file)].sort(), 20);
          for (const code of picked) {
            const r = await search.postal(parseRequest(PostalQueryRequest, { query: code, country: cc }));
            const hit = r.find((p) => p.postal_code === formatPostalCode(cc as CountryCode, code));
            expect(hit).toBeDefined();
            if (hit!.municipality) placed++;
          }
          expect(placed).toBe(picked.length);
        }
      }, 120_000);

      it('lists the codes of a start in their order (a code has no size to rank by)', async () => {
        for (const start of sample([...new Set([...want.municipalitiesOf.keys()].map((c) => c.slice(0, 2)))].sort(), 5)) {
          const r = (await search.postal(parseRequest(PostalQueryRequest, { query: start, country: cc }))).map((p) => p.postal_code!.replace(/\D/g, ''));
          // The first seven codes of the file that start so, in order (a start with one code answers that one).
          expect([start, r]).toEqual([start, want.codes.filter((c) => c.startsWith(start)).slice(0, 7)]);
        }
      }, 120_000);

      it('answers /municipality by name', async () => {
        const names = sample([...new Set((await catalogue.municipalities(cc as CountryCode)).map((m) => m.municipality!))].filter((n) => /^[\p{L} -]+$/u.test(n)).sort(), 10);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) {
          const r = await search.municipality(parseRequest(MunicipalityQueryRequest, { query: name, country: cc, limit: 20 }));
          expect(r.map((p) => p.municipality)).toContain(name);
        }
      }, 120_000);
    });
  });
}
