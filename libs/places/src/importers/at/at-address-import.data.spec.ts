import { join, resolve } from 'node:path';
import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport } from '../address-import';
import { loadGeonamesCatalogue } from '../geonames';
import { atPlaceDocs } from './at-address-import';

const GEONAMES_AT = sharedData('geonames/AT.txt');
const STICHTAG = join(resolve(__dirname, '../../fixtures/at'), 'stichtag');

describeWithData([GEONAMES_AT], 'atPlaceDocs with the real GeoNames AT catalogue', () => {
  const docs: PlaceDoc[] = [];
  let report: AddressImportReport | null = null;

  beforeAll(async () => {
    const catalogue = await loadGeonamesCatalogue('AT', GEONAMES_AT);
    for await (const b of atPlaceDocs({ sources: [STICHTAG], catalogue, onReport: (r) => (report = r) })) docs.push(...b);
  }, 120_000);

  it('finds every fixture Gemeinde and Bezirk by its GKZ in the catalogue, with its names', () => {
    const byId = (id: string) => docs.find((d) => d.place_id === id)!;
    expect(byId('at_a6100021')).toMatchObject({ county_id: 'at_c701', region: 'Tirol', municipality: 'Innsbruck' });
    expect(byId('at_a6100011')).toMatchObject({ county_id: 'at_c501', region: 'Salzburg', municipality: 'Salzburg' });
    expect(byId('at_a6100032')).toMatchObject({ county_id: 'at_c103', region: 'Burgenland', municipality: 'Leithaprodersdorf' });
    expect(byId('at_a6100001')).toMatchObject({ county_id: 'at_c900', region: 'Wien', municipality: 'Wien' });
    for (const id of ['at_c701', 'at_c501', 'at_c103', 'at_c900']) expect(byId(id).name).toBeTruthy();
    expect(report!.errors.filter((e) => e.includes('is not in the catalogue'))).toEqual([]);
  });
});
