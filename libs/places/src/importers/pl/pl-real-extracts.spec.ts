import { resolve } from 'node:path';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { plPlaceDocs } from './pl-address-import';

/** Extracts of the real files (GUGiK PRG samples, GUS TERC XML); sources in the fixture README. */
const PL = resolve(__dirname, '../../fixtures/pl/real');
const PRG_2021 = resolve(PL, 'PRG-punkty_adresowe-2021-real-08.xml');
const PRG_2012 = resolve(PL, 'PRG_PunktyAdresowe-2012-real-08.xml');
const TERC = resolve(PL, 'TERC_Urzedowy_2025-11-18-head.xml');

async function importPl(sources: string[]) {
  let report: AddressImportReport | null = null;
  const docs: PlaceDoc[] = [];
  for await (const b of plPlaceDocs({ sources, onReport: (r) => (report = r) })) docs.push(...b);
  return { docs, report: report! };
}

const addresses = (docs: PlaceDoc[]) => docs.filter((d) => d.object === 'address');

describe('PL importer on real extracts', () => {
  it('2021 schema with the real TERC XML: every point placed and named', async () => {
    const { docs, report } = await importPl([PRG_2021, TERC]);
    expect(report).toMatchObject({ addresses: 3, skipped: 0, errors: [] });
    expect(addresses(docs).map((d) => [d.name, d.municipality_id, d.municipality, d.county, d.region])).toEqual([
      ['Żubrów 21A, 69-200 Żubrów', 'pl_m080704', 'Sulęcin', 'powiat sulęciński', 'lubuskie'],
      ['ul. Inwalidów Wojennych 1A, 69-110 Rzepin', 'pl_m080504', 'Rzepin', 'powiat słubicki', 'lubuskie'],
      ['Plac Kasztanowy 2A, 69-210 Lubniewice', 'pl_m080702', 'Lubniewice', 'powiat sulęciński', 'lubuskie'],
    ]);
    // Positions from EPSG:2180 land in lubuskie.
    expect(addresses(docs).every((d) => d.lat! > 51.3 && d.lat! < 53.2 && d.lng! > 14.5 && d.lng! < 16.5)).toBe(true);
  });

  it('2012 schema: names from the file itself', async () => {
    const { docs, report } = await importPl([PRG_2012]);
    expect(report).toMatchObject({ addresses: 2, skipped: 0, errors: [] });
    expect(addresses(docs).map((d) => [d.name, d.municipality, d.county, d.region])).toEqual([
      ['Podgórna 2, 67-416 Konotop', 'Kolsko', 'powiat nowosolski', 'lubuskie'],
      ['Podgórna 1, 67-416 Konotop', 'Kolsko', 'powiat nowosolski', 'lubuskie'],
    ]);
  });
});
