import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { liPlaceDocs } from './li-import';
import { hasAddressTags } from './osm-address-scan';
import { readOsmPbf } from './osm-pbf/osm-pbf.reader';

const PBF = sharedData('li/liechtenstein-2022.osm.pbf');

describeWithData([PBF], 'liPlaceDocs on the real OSM extract of Liechtenstein', () => {
  let docs: PlaceDoc[];
  let report: AddressImportReport;
  let tagged: number;

  beforeAll(async () => {
    docs = [];
    for await (const b of liPlaceDocs({ sources: [PBF], onReport: (r) => (report = r) })) docs.push(...b);
    tagged = 0;
    for await (const els of readOsmPbf(PBF)) for (const e of els) if (hasAddressTags(e.tags)) tagged++;
  }, 60_000);

  it('accounts for every element with addr:* tags: an address or a reported reason', () => {
    expect(tagged).toBe(3808);
    expect(report.addresses).toBe(3395);
    expect(report.addresses + report.skipped).toBe(tagged);
    const reasons: Record<string, number> = {};
    for (const e of report.errors) {
      const reason = e.replace(/^\S+ [nwr]\d+: /, '').replace(/ [nwr]\d+$/, '').replace(/"[^"]*"/g, '"…"');
      reasons[reason] = (reasons[reason] ?? 0) + 1;
    }
    expect(reasons).toEqual({
      'the same address as': 147,
      'no addr:street or addr:place': 171,
      'no addr:housenumber': 73,
      'addr:postcode "…" is not a Liechtenstein postal code': 20,
      'a house name without addr:housenumber': 2,
    });
  });

  it('places every address in one of the 11 municipalities and the two regions, inside the country', () => {
    const municipalities = docs.filter((d) => d.object === 'municipality').map((d) => `${d.place_id} ${d.name}`);
    expect(municipalities).toEqual([
      'li_m7001 Balzers', 'li_m7002 Eschen', 'li_m7003 Gamprin', 'li_m7004 Mauren', 'li_m7005 Planken', 'li_m7006 Ruggell',
      'li_m7007 Schaan', 'li_m7008 Schellenberg', 'li_m7009 Triesen', 'li_m7010 Triesenberg', 'li_m7011 Vaduz',
    ]);
    expect(docs.filter((d) => d.object === 'region').map((d) => d.place_id)).toEqual(['li_roberland', 'li_runterland']);
    const addresses = docs.filter((d) => d.object === 'address');
    expect(addresses.every((d) => d.municipality_id && d.lat! > 47.04 && d.lat! < 47.28 && d.lng! > 9.47 && d.lng! < 9.64)).toBe(true);
    expect(report).toMatchObject({ municipalities: 11, postalCodes: 13 });
  });

  it('has known addresses where OSM has them', () => {
    const find = (name: string) => docs.find((d) => d.object === 'address' && d.name === name);
    expect(find('Städtle 23, 9490 Vaduz')).toMatchObject({ place_id: 'li_an315636967', municipality_id: 'li_m7011', region: 'Oberland', lat: 47.1399905, lng: 9.5228593 });
    expect(find('Landstrasse 1, 9495 Triesen')).toMatchObject({ municipality_id: 'li_m7009', lat: 47.1227326, lng: 9.5243711 });
    expect(find('Churer Strasse 32, 9485 Nendeln')).toMatchObject({ municipality: 'Eschen', district: 'Nendeln', region: 'Unterland' });
  });
});

const GEONAMES_LI = sharedData('geonames/LI.txt');

describeWithData([PBF, GEONAMES_LI], 'liPlaceDocs with the GeoNames LI catalogue', () => {
  it('uses the catalogue ids and names (matched by name, official BFS numbers)', async () => {
    const { loadGeonamesCatalogue } = await import('../geonames/geonames-catalogue');
    const catalogue = await loadGeonamesCatalogue('LI', GEONAMES_LI);
    const ids = new Set([...catalogue.regions, ...catalogue.municipalities].map((d) => d.place_id));
    const docs: PlaceDoc[] = [];
    for await (const b of liPlaceDocs({ sources: [PBF], catalogue })) docs.push(...b);
    const areas = docs.filter((d) => d.object === 'municipality' || d.object === 'region');
    expect(areas).toHaveLength(13);
    for (const a of areas) expect(ids.has(a.place_id)).toBe(true);
    expect(docs.find((d) => d.place_id === 'li_m7002')).toMatchObject({ name: 'Eschen', region_id: 'li_runterland' });
  }, 60_000);
});
