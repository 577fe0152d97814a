import { describeWithData, sharedData } from '@lookup/shared/testing';
import { Catalogue } from '../catalogue.types';
import { SkCatalogueBuilder } from './sk-catalogue.builder';
import { SK_ADDRESS_TYPES } from './sk-address.fold';
import { readRegisterChanges } from './sk-register-xml.reader';

const DAVKY = sharedData('sk/davky.zip');

describeWithData([DAVKY], 'the SK catalogue of the real Register adries batches', () => {
  let cat: Catalogue;
  /** objectIds of municipalities that a municipality part, street or building names. */
  const referenced = new Set<string>();

  beforeAll(async () => {
    const b = new SkCatalogueBuilder(new Date('2016-10-05T00:00:00Z'));
    for await (const r of readRegisterChanges(DAVKY, { types: SK_ADDRESS_TYPES })) {
      b.apply(r);
      if (r.parents.municipalityIdentifier) referenced.add(r.parents.municipalityIdentifier);
    }
    cat = b.build();
  }, 120_000);

  it('names the eight regions with their diacritics, as the register writes the other seven', () => {
    expect(cat.regions.map((r) => [r.place_id, r.name])).toEqual([
      ['sk_rsk010', 'Bratislavský'], ['sk_rsk021', 'Trnavský'], ['sk_rsk022', 'Trenčiansky'], ['sk_rsk023', 'Nitriansky'],
      ['sk_rsk031', 'Žilinský'], ['sk_rsk032', 'Banskobystrický'], ['sk_rsk041', 'Prešovský'], ['sk_rsk042', 'Košický'],
    ]);
    expect(cat.counties).toHaveLength(79);
    expect(cat.counties.filter((c) => c.region_id === 'sk_rsk022').map((c) => c.region)).toEqual(Array(9).fill('Trenčiansky'));
  });

  it('leaves out only municipality records without a code, which nothing in the register refers to', () => {
    const skipped = cat.errors.map((e) => /^MUNICIPALITY objectId (\d+) "(.+)" has no codelist ItemCode or ItemName: skipped(?:; "(.+)" is in the catalogue from objectId (\d+))?$/.exec(e));
    expect(skipped.every((m) => m !== null)).toBe(true);
    expect(skipped).toHaveLength(11);
    // No street, municipality part or building of the register lies in any of them.
    expect(skipped.filter((m) => referenced.has(m![1]!))).toEqual([]);
    // Those whose name a current municipality bears are kept under that municipality's code, and the message says so
    // (a reviewer read "Hlboké ... skipped" as a lost town while Hlboké was in the list).
    const names = new Set(cat.municipalities.map((m) => m.name));
    expect(['Hlboké', 'Prietrž', 'Smolník', 'Starina'].filter((n) => !names.has(n))).toEqual([]);
    const told = skipped.filter((m) => m![3]).map((m) => m![2]);
    expect(told).toEqual(expect.arrayContaining(['Hlboké', 'Prietrž']));
    for (const m of skipped.filter((x) => x![3])) expect(names.has(m![3]!)).toBe(true);
  });
});
