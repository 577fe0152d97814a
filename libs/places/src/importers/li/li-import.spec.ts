import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { liPlaceDocs } from './li-import';
import { OsmElement, readOsmPbf } from './osm-pbf/osm-pbf.reader';
import { LI_NODES, writeLiFixtures } from './testing/li-fixture';
import { writeOsmPbf } from './testing/osm-pbf.writer';

const dir = tempDir('li-import-');
afterAll(() => dir.remove());
const files = writeLiFixtures(dir.path);

async function elements(path: string): Promise<OsmElement[]> {
  const out: OsmElement[] = [];
  for await (const b of readOsmPbf(path)) out.push(...b);
  return out;
}

async function importLi(sources: string[]) {
  let report: AddressImportReport | null = null;
  const docs: PlaceDoc[] = [];
  for await (const b of liPlaceDocs({ sources, batchSize: 3, onReport: (r) => (report = r) })) docs.push(...b);
  return { docs, report: report! };
}

function byId(docs: PlaceDoc[], id: string): PlaceDoc {
  const d = docs.filter((x) => x.place_id === id).pop();
  if (!d) throw new Error(`no doc ${id}`);
  return d;
}

describe('readOsmPbf', () => {
  it('decodes dense and plain nodes, ways and relations with their tags and members', async () => {
    const els = await elements(files.first);
    expect(els.filter((e) => e.type === 'node')).toHaveLength(LI_NODES.length);
    expect(els.find((e) => e.type === 'node' && e.id === 1)).toEqual({ type: 'node', id: 1, lat: 47.14, lng: 9.5225, tags: LI_NODES[0]!.tags });
    expect(els.find((e) => e.type === 'node' && e.id === 9001)).toEqual({ type: 'node', id: 9001, lat: 47.12, lng: 9.5, tags: {} });
    expect(els.find((e) => e.type === 'way' && e.id === 902)).toEqual({ type: 'way', id: 902, refs: [9003, 9004, 9001], tags: {} });
    expect(els.find((e) => e.type === 'relation' && e.id === 20)).toMatchObject({
      members: [{ type: 'way', ref: 21, role: 'outer' }, { type: 'way', ref: 22, role: 'inner' }],
      tags: { 'addr:street': 'Kirchstrasse', type: 'multipolygon' },
    });
  });

  it('reads uncompressed blobs and negative coordinates', async () => {
    const path = join(dir.path, 'raw.osm.pbf');
    writeOsmPbf(path, { nodes: [{ id: 5, lat: -33.8688197, lng: -151.2092955 }, { id: 7, lat: 0.0000001, lng: 179.9999999 }], raw: true });
    expect(await elements(path)).toEqual([
      { type: 'node', id: 5, lat: -33.8688197, lng: -151.2092955, tags: {} },
      { type: 'node', id: 7, lat: 0.0000001, lng: 179.9999999, tags: {} },
    ]);
  });

  it('fails clearly on a truncated file and on a file that is not PBF', async () => {
    const cut = join(dir.path, 'cut.osm.pbf');
    writeFileSync(cut, readFileSync(files.first).subarray(0, 200));
    await expect(elements(cut)).rejects.toThrow(/truncated/);
    const text = join(dir.path, 'text.osm.pbf');
    writeFileSync(text, '<?xml version="1.0"?><osm></osm>');
    await expect(elements(text)).rejects.toThrow(/not an OSM PBF file/);
  });
});

describe('liPlaceDocs', () => {
  let run: Awaited<ReturnType<typeof importLi>>;
  beforeAll(async () => {
    run = await importLi([files.first]);
  });

  it('turns nodes, ways (centroid) and relations with a house number into addresses', () => {
    expect(run.docs.filter((d) => d.object === 'address').map((d) => `${d.place_id} ${d.name}`)).toEqual([
      'li_an1 Städtle 1, 9490 Vaduz',
      'li_an2 Landstrasse 5, 9494 Schaan',
      'li_an6 Churer Strasse 32, 9485 Nendeln',
      'li_an7 Malbun 12, 9497 Triesenberg',
      'li_aw10 Äulestrasse 20, 9490 Vaduz',
      'li_ar20 Kirchstrasse 3, 9493 Mauren',
    ]);
    expect(byId(run.docs, 'li_an1')).toMatchObject({
      country: 'LI', street: 'Städtle', building_number: '1', street_number: null, number_kind: null, postal_code: '9490',
      municipality: 'Vaduz', municipality_id: 'li_m7011', region: 'Oberland', region_id: 'li_roberland', county_id: null, district: null,
      lat: 47.14, lng: 9.5225,
    });
    expect(byId(run.docs, 'li_aw10')).toMatchObject({ lat: 47.138, lng: 9.52 });
    expect(byId(run.docs, 'li_ar20')).toMatchObject({ municipality_id: 'li_m7004', region_id: 'li_runterland', lat: 47.2191, lng: 9.5462 });
  });

  it('places an address by addr:city, by Ortsteil, by postcode or by the boundary it lies in', () => {
    expect(byId(run.docs, 'li_an6')).toMatchObject({ municipality: 'Eschen', municipality_id: 'li_m7002', district: 'Nendeln', postal_place: 'Nendeln' });
    expect(byId(run.docs, 'li_an2')).toMatchObject({ municipality: 'Schaan', municipality_id: 'li_m7007', postal_code: '9494' });
    expect(byId(run.docs, 'li_an7')).toMatchObject({ street: null, street_id: null, district: 'Malbun', municipality: 'Triesenberg' });
  });

  it('reports every addr:* element that is not an address, with the reason', () => {
    expect(run.report).toMatchObject({ country: 'LI', addresses: 6, skipped: 4 });
    expect(run.report.errors).toEqual([
      'liechtenstein-test.osm.pbf n3: addr:postcode "6800" is not a Liechtenstein postal code',
      'liechtenstein-test.osm.pbf n4: no addr:housenumber',
      'liechtenstein-test.osm.pbf n5: the same address as n1',
      'liechtenstein-test.osm.pbf n8: neither addr:city "" nor addr:postcode "" names a Liechtenstein municipality, and it lies outside their boundaries',
    ]);
  });

  it('derives streets, postal codes, municipalities and the two regions', () => {
    expect(byId(run.docs, 'li_s7011-stadtle')).toMatchObject({ object: 'street', name: 'Städtle', weight: 1, postal_code: '9490' });
    expect(byId(run.docs, 'li_p9490')).toMatchObject({ object: 'postal_code', weight: 2, municipality: 'Vaduz' });
    expect(byId(run.docs, 'li_m7011')).toMatchObject({ object: 'municipality', name: 'Vaduz', weight: 2, region_id: 'li_roberland' });
    expect(byId(run.docs, 'li_runterland')).toMatchObject({ object: 'region', name: 'Unterland', weight: 2 });
    expect(run.report).toMatchObject({ streets: 5, postalCodes: 5, municipalities: 5 });
  });

  it('keeps the later version of an element from a later extract', async () => {
    const { docs } = await importLi([files.first, files.later]);
    expect(byId(docs, 'li_an1')).toMatchObject({ name: 'Städtle 3, 9490 Vaduz', building_number: '3' });
  });

  it('refuses a source that is neither a PBF extract nor swisstopo\'s address file, naming what is missing', async () => {
    const other = join(dir.path, 'x.csv');
    writeFileSync(other, 'a;b\n1;2\n');
    await expect(importLi([other])).rejects.toThrow(/not an amtliches Gebäudeadressverzeichnis CSV: no column ADR_EGAID/);
  });
});
