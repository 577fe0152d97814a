import { resolve } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { chPlaceDocs } from '../ch/ch-import';
import { liPlaceDocs } from './li-import';

/**
 * swisstopo's building-address file: five rows of Liechtenstein (one planned, one with a broken
 * ZIP_LABEL) and two Swiss rows (one broken).
 */
const FILE = resolve(__dirname, '../../fixtures/li/amtliches-gebaeudeadressverzeichnis_ch_2056-li.csv');

async function run(importer: typeof liPlaceDocs) {
  let report: AddressImportReport | null = null;
  const docs: PlaceDoc[] = [];
  for await (const b of importer({ sources: [FILE], onReport: (r) => (report = r) })) docs.push(...b);
  return { docs, report: report! };
}

const addresses = (docs: PlaceDoc[]) => docs.filter((d) => d.object === 'address');

describe('Liechtenstein in swisstopo\'s building-address file', () => {
  it('addresses LI imports its rows as official LI addresses', async () => {
    const { docs, report } = await run(liPlaceDocs);
    expect(report).toMatchObject({ country: 'LI', addresses: 3, skipped: 2 });
    // The broken Swiss row is not this import's to report.
    expect(report.errors).toEqual([
      'amtliches-gebaeudeadressverzeichnis_ch_2056-li.csv line 7: EGAID 190100006: ZIP_LABEL "949O Vaduz" is not "<4-digit PLZ> <locality>"',
      '1 rows with ADR_STATUS "planned" are not existing addresses: not imported',
      '2 rows of Switzerland left out (they are imported with "addresses CH <this file>")',
    ]);
    const [vaduz, nendeln, gamprin] = addresses(docs);
    expect(vaduz).toMatchObject({
      place_id: 'li_a190100001', country: 'LI', street: 'Städtle', street_id: 'li_s190100901', building_number: '35', postal_code: '9490',
      municipality: 'Vaduz', municipality_id: 'li_m7011', region: 'Oberland', region_id: 'li_roberland', district: null, postal_place: null,
    });
    expect(vaduz!.lat).toBeCloseTo(47.1399, 4);
    expect(vaduz!.lng).toBeCloseTo(9.5215, 4);
    // A postal locality inside the municipality is its district and the envelope's town.
    expect(nendeln).toMatchObject({ municipality: 'Eschen', municipality_id: 'li_m7002', region: 'Unterland', district: 'Nendeln', postal_place: 'Nendeln', postal_code: '9485' });
    // An LI row that writes a canton (FL) is still Liechtenstein's; the combined post office name is no district.
    expect(gamprin).toMatchObject({ municipality: 'Gamprin', municipality_id: 'li_m7003', district: null, postal_place: 'Gamprin-Bendern' });
    expect(docs.filter((d) => d.object === 'municipality').map((d) => d.name).sort()).toEqual(['Eschen', 'Gamprin', 'Vaduz']);
    expect(docs.every((d) => d.country === 'LI')).toBe(true);
  });

  it('addresses CH leaves them out, counted and said', async () => {
    const { docs, report } = await run(chPlaceDocs);
    expect(report).toMatchObject({ country: 'CH', addresses: 1, skipped: 6 });
    expect(report.errors).toEqual([
      'amtliches-gebaeudeadressverzeichnis_ch_2056-li.csv line 8: EGAID 190100007: ZIP_LABEL "947O Buchs SG" is not "<4-digit PLZ> <locality>"',
      '5 rows of Liechtenstein (COM_FOSNR 7001-7011) are not Swiss addresses: not imported (import them with "addresses LI <this file>")',
    ]);
    expect(addresses(docs).map((d) => d.municipality)).toEqual(['Buchs (SG)']);
    expect(docs.some((d) => d.municipality_id?.startsWith('ch_m70'))).toBe(false);
  });
});
