import { describeWithData, sharedData, tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { loadCatalogue } from '../catalogue.loader';
import { jtskToWgs84 } from '../../geo/sjtsk';
import { AddressImportReport, ruianPlaceDocs } from '../address-import';
import { goldenRegisterSubset, loadGolden } from '../../search/testing/golden-queries';
import { RuianSubset } from './ruian-subset';

function metres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dy = (a.lat - b.lat) * 111_320;
  const dx = (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

const ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const PSC_LIST = sharedData('cz/psc-list.csv');
const GOLDEN = sharedData('queries/cz-addresses.jsonl');

/** The Czech Republic's extent with a small margin. */
const CZ_BOX = { latMin: 48.5, latMax: 51.1, lngMin: 12.0, lngMax: 18.9 };

/**
 * The importer over part of the real RUIAN zip (2023-12-31), cut at test time: every municipality
 * a golden query names, with its namesakes, and every 8th other one (about 420 000 address
 * points). The whole register is bench/import-ruian.ts's (it reports 2 754 745 addresses, none
 * skipped), not a test's.
 */
describeWithData([ZIP, PSC_LIST, GOLDEN], 'ruianPlaceDocs over part of the real RUIAN zip (2023-12-31)', () => {
  const dir = tempDir('ruian-import-');
  let subset: RuianSubset;
  const seen = new Set<number>();
  const derived: Record<string, PlaceDoc[]> = { street: [], postal_code: [], municipality: [], county: [], region: [] };
  let addresses = 0;
  let duplicates = 0;
  let withoutPosition = 0;
  const outside: string[] = [];
  let report: AddressImportReport | null = null;
  /** Golden "full" queries are formatted addresses: each one must be the name of an address. */
  const fullQueries = new Map<string, boolean>();
  /** Golden reverse queries: the S-JTSK point of an address; the nearest address doc must be that one. */
  type Reverse = { at: { lat: number; lng: number }; expect: Record<string, string>; best: PlaceDoc | null; metres: number };
  const reverse: Reverse[] = [];
  /** Golden points by 0.01° cell, each registered in its cell and the 8 around it, so an address looks up one cell. */
  const near = new Map<number, Reverse[]>();
  const cell = (lat: number, lng: number) => Math.floor(lat * 100) * 100_000 + Math.floor(lng * 100);

  beforeAll(async () => {
    const golden = loadGolden(GOLDEN);
    subset = await goldenRegisterSubset(ZIP, PSC_LIST, golden, dir.path);
    for (const q of golden) {
      if (q.type === 'full' && q.params.query) fullQueries.set(q.params.query, false);
      if (q.type === 'reverse_jtsk') reverse.push({ at: jtskToWgs84(Number(q.params.jtskX), Number(q.params.jtskY)), expect: q.expect, best: null, metres: Infinity });
    }
    for (const r of reverse) {
      for (const dy of [-0.01, 0, 0.01]) {
        for (const dx of [-0.01, 0, 0.01]) {
          const k = cell(r.at.lat + dy, r.at.lng + dx);
          near.set(k, [...(near.get(k) ?? []), r]);
        }
      }
    }
    for await (const batch of ruianPlaceDocs({ zipOrDir: subset.dir, catalogue: { pscList: PSC_LIST }, batchSize: 2000, onReport: (r) => (report = r) })) {
      for (const d of batch) {
        if (d.object !== 'address') {
          derived[d.object]!.push(d);
          continue;
        }
        addresses++;
        const code = Number(d.place_id.slice('cz_a'.length));
        if (seen.has(code)) duplicates++;
        seen.add(code);
        if (d.lat === null || d.lng === null) withoutPosition++;
        else {
          for (const r of near.get(cell(d.lat, d.lng)) ?? []) {
            const m = metres(r.at, { lat: d.lat, lng: d.lng });
            if (m < r.metres) [r.best, r.metres] = [d, m];
          }
        }
        if (d.lat !== null && d.lng !== null && (d.lat < CZ_BOX.latMin || d.lat > CZ_BOX.latMax || d.lng < CZ_BOX.lngMin || d.lng > CZ_BOX.lngMax)) outside.push(`${d.place_id} ${d.lat},${d.lng}`);
        // The golden file writes an evidence number `ev. 783`; we write the full `č. ev. 783`.
        for (const name of [d.name, d.name.replace('č. ev.', 'ev.')]) if (fullQueries.has(name)) fullQueries.set(name, true);
      }
    }
  }, 600_000);
  afterAll(() => dir.remove());

  it('yields exactly the address rows of the files, each once, with nothing skipped', () => {
    console.log(
      `RUIAN real: ${addresses} addresses (${withoutPosition} without a position), derived ${derived['street']!.length} streets, ` +
        `${derived['postal_code']!.length} postal codes, ${derived['municipality']!.length} municipalities, ${derived['county']!.length} counties, ` +
        `${derived['region']!.length} regions in ${report!.seconds.toFixed(1)} s`,
    );
    expect(subset.addresses).toBeGreaterThan(300_000);
    expect(addresses).toBe(subset.addresses);
    expect(duplicates).toBe(0);
    expect(seen.size).toBe(subset.addresses);
    expect(report).toMatchObject({ addresses: subset.addresses, skipped: 0, errors: [] });
  });

  it('places every address with a position inside the Czech Republic; the few without one stay null', () => {
    expect(outside).toEqual([]);
    expect(withoutPosition).toBeLessThan(addresses * 0.001);
  });

  it('writes addresses exactly as the golden full-address queries do', () => {
    const missing = [...fullQueries].filter(([, found]) => !found).map(([q]) => q);
    expect(fullQueries.size).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it('puts the nearest address to each golden S-JTSK point within 0.5 m, and it is the expected one', () => {
    expect(reverse.length).toBeGreaterThan(30);
    for (const r of reverse) {
      expect(r.metres).toBeLessThan(0.5);
      expect(r.best).toMatchObject(r.expect);
    }
  });

  it('derives municipalities under the catalogue ids, and unique streets and postal codes', async () => {
    const { catalogue } = await loadCatalogue({ country: 'CZ', sources: { pscList: PSC_LIST } });
    const catalogueIds = new Set(catalogue.municipalities.map((m) => m.place_id));
    const municipalities = derived['municipality']!;
    expect(municipalities.filter((m) => !catalogueIds.has(m.place_id))).toEqual([]);
    expect(municipalities.reduce((s, m) => s + m.weight, 0)).toBe(subset.addresses);
    // One municipality document for each file with addresses, weighing what its file holds.
    expect(Object.fromEntries(municipalities.map((m) => [m.place_id, m.weight]))).toEqual(
      Object.fromEntries([...subset.addressesIn].filter(([, n]) => n > 0).map(([c, n]) => [`cz_m${c}`, n])),
    );
    expect(municipalities.every((m) => m.county_id && m.region_id && m.lat !== null)).toBe(true);
    const catalogueAreas = new Set([...catalogue.counties, ...catalogue.regions].map((d) => d.place_id));
    for (const kind of ['county', 'region']) {
      expect(derived[kind]!.filter((d) => !catalogueAreas.has(d.place_id))).toEqual([]);
      expect(derived[kind]!.reduce((s, d) => s + d.weight, 0)).toBe(subset.addresses);
    }
    for (const kind of ['street', 'postal_code', 'municipality', 'county', 'region']) {
      const ids = derived[kind]!.map((d) => d.place_id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(derived['postal_code']!.every((p) => /^\d{5}$/.test(p.name) && p.municipality_id !== null)).toBe(true);
    expect(report).toMatchObject({ streets: derived['street']!.length, postalCodes: derived['postal_code']!.length, municipalities: municipalities.length });
  });
});
