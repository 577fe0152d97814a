import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { loadGeonamesCatalogue } from '../geonames/geonames-catalogue';
import { chPlaceDocs } from './ch-import';
import { CH_FIXTURE_SOURCES } from './ch-search.suite';

const GEONAMES_CH = sharedData('geonames/CH.txt');

describeWithData([GEONAMES_CH], 'chPlaceDocs with the GeoNames CH catalogue', () => {
  it('takes the district (county) and names from the catalogue by BFS number and canton', async () => {
    const catalogue = await loadGeonamesCatalogue('CH', GEONAMES_CH);
    const docs: PlaceDoc[] = [];
    for await (const b of chPlaceDocs({ sources: CH_FIXTURE_SOURCES, catalogue })) docs.push(...b);
    const get = (id: string) => docs.filter((d) => d.place_id === id).pop();
    expect(get('ch_a190000001')).toMatchObject({ municipality_id: 'ch_m261', county_id: 'ch_c112', county: 'Zürich', region_id: 'ch_rzh', region: 'Zürich' });
    expect(get('ch_a190000006')).toMatchObject({ municipality: 'Köniz', county_id: 'ch_c246', region_id: 'ch_rbe', district: 'Wabern' });
    expect(get('ch_a190000005')).toMatchObject({ county_id: 'ch_c2105', region_id: 'ch_rti' });
    // The catalogue's county and canton docs come back with the addresses' weight.
    expect(get('ch_c112')).toMatchObject({ object: 'county', weight: 3 });
    expect(get('ch_rbe')).toMatchObject({ object: 'region', weight: 2 });
  });
});
