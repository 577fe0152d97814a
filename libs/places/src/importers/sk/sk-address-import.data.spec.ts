import { describeWithData, sharedData } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport, skRegisterPlaceDocs } from '../address-import';

const DAVKY = sharedData('sk/davky.zip');
const CHANGE = sharedData('sk/zmenovadavka5156536.xml');

describeWithData([DAVKY, CHANGE], 'skRegisterPlaceDocs over the real Register adries batches', () => {
  const docs: PlaceDoc[] = [];
  let report: AddressImportReport | null = null;
  const again: PlaceDoc[] = [];

  beforeAll(async () => {
    for await (const b of skRegisterPlaceDocs({ sources: [DAVKY, CHANGE], onReport: (r) => (report = r) })) docs.push(...b);
    for await (const b of skRegisterPlaceDocs({ sources: [CHANGE, DAVKY, CHANGE] })) again.push(...b);
  }, 300_000);

  it('builds addresses from the 2016 change batch entrances and reports the rest', () => {
    const addresses = docs.filter((d) => d.object === 'address');
    const located = addresses.filter((d) => d.lat !== null);
    console.log(
      `SK real: ${addresses.length} addresses (${located.length} with a position), ${report!.streets} streets, ${report!.postalCodes} postal codes, ` +
        `${report!.municipalities} municipalities; ${report!.skipped} entrances skipped; ${report!.errors.length} messages, first: ${report!.errors.slice(0, 3).join(' | ')}`,
    );
    expect(addresses.length).toBeGreaterThan(0);
    expect(report!.addresses).toBe(addresses.length);
    for (const d of located) {
      expect(d.lat! > 47.6 && d.lat! < 49.7 && d.lng! > 16.7 && d.lng! < 22.7).toBe(true);
    }
    expect(addresses.every((d) => d.municipality_id?.startsWith('sk_m') && d.county_id && d.region_id && d.name.includes(d.municipality!))).toBe(true);
    expect(new Set(docs.map((d) => d.place_id)).size).toBe(docs.length);
    // Every entrance left out is explained (the sample batches lack many of the buildings they refer to).
    const unplaced = report!.errors.filter((e) => /entrance objectId \d+: its (building|street|municipality)|neither a súpisné/.test(e));
    expect(unplaced).toHaveLength(report!.skipped);
  });

  it('gives the same docs when the change batch is applied twice and before the init batches', () => {
    expect(again).toEqual(docs);
  });
});
