import { countryAliasName, countryIndexName, parseCountryIndex, switchActions, writeIndexFor } from '@lookup/places';
import { checkCounts, VerifyError } from './verify';
import { IMPORTERS, importerFor } from './importers';

describe('verify: document counts', () => {
  const base = { docs: 1000, loaded: 900, carried: 100, previous: { version: 'v1', docs: 1050 }, maxDrop: 0.1, force: false };

  it('accepts a version holding exactly what was loaded and carried, within the allowed drop', () => {
    expect(() => checkCounts(base)).not.toThrow();
    expect(() => checkCounts({ ...base, previous: null })).not.toThrow();
  });

  it('fails a lost or doubled document, an empty dataset, a disagreeing report and a big drop unless forced', () => {
    expect(() => checkCounts({ ...base, docs: 999 })).toThrow(/holds 999 documents, but 900 were loaded and 100 carried/);
    expect(() => checkCounts({ ...base, loaded: 0, carried: 1000 })).toThrow(/gave no documents/);
    expect(() => checkCounts({ ...base, addresses: 10, addressDocs: 9 })).toThrow(/reported 10 addresses but gave 9/);
    const drop = { ...base, previous: { version: 'v1', docs: 1200 } };
    expect(() => checkCounts(drop)).toThrow(VerifyError);
    expect(() => checkCounts(drop)).toThrow(/16\.7% fewer than the live version v1 \(1200\); more than the allowed 10%/);
    expect(() => checkCounts({ ...drop, force: true })).not.toThrow();
    expect(() => checkCounts({ ...drop, maxDrop: 0.2 })).not.toThrow();
  });
});

describe('versioned places indexes: one _aliases call per switch', () => {
  const alias = 'p-places';

  it('names and parses per-country versions; the shared index is not one', () => {
    expect(countryIndexName(alias, 'CZ', '20261122051000123')).toBe('p-places-cz-20261122051000123');
    expect(parseCountryIndex(alias, 'p-places-cz-20261122051000123')).toEqual({ country: 'CZ', version: '20261122051000123' });
    expect(parseCountryIndex(alias, 'p-places-v1')).toBeNull();
    expect(writeIndexFor(alias, ['p-places-v1', 'p-places-cz-1'], 'CZ')).toBe('p-places-cz-1');
    expect(writeIndexFor(alias, ['p-places-v1', 'p-places-cz-1'], 'SK')).toBe('p-places-v1');
  });

  it('removes the old version of the country, adds the new one, and hides the country in the shared index', () => {
    expect(switchActions(alias, ['p-places-v1', 'p-places-cz-1', 'p-places-sk-5'], 'p-places-cz-2')).toEqual([
      { remove: { index: 'p-places-v1', alias } },
      { add: { index: 'p-places-v1', alias, filter: { bool: { must_not: [{ terms: { country: ['CZ', 'SK'] } }] } } } },
      { remove: { index: 'p-places-cz-1', alias } },
      { add: { index: 'p-places-cz-2', alias } },
      { add: { index: 'p-places-cz-2', alias: 'p-places-cz' } },
    ]);
    expect(switchActions(alias, [], 'p-places-cz-1')).toEqual([{ add: { index: 'p-places-cz-1', alias } }, { add: { index: 'p-places-cz-1', alias: 'p-places-cz' } }]);
  });

  it("moves the country's own alias in the same call: off the old version, onto the new one", () => {
    expect(switchActions(alias, ['p-places-cz-1', 'p-places-sk-5'], 'p-places-cz-2', ['p-places-cz-1'])).toEqual([
      { remove: { index: 'p-places-cz-1', alias } },
      { add: { index: 'p-places-cz-2', alias } },
      { remove: { index: 'p-places-cz-1', alias: 'p-places-cz' } },
      { add: { index: 'p-places-cz-2', alias: 'p-places-cz' } },
    ]);
    expect(countryAliasName(alias, 'CZ')).toBe('p-places-cz');
    // The name of a country alias is never a country version's.
    expect(parseCountryIndex(alias, countryAliasName(alias, 'CZ'))).toBeNull();
  });
});

describe('importer registry', () => {
  it('knows the address, catalogue and business formats, and refuses an unknown one permanently', () => {
    expect(Object.keys(IMPORTERS).sort()).toEqual([
      'at-bev-csv', 'ch-swisstopo-csv', 'cz-ares-json', 'cz-catalogue-csv', 'cz-res-csv', 'geonames', 'li-osm-pbf', 'pl-prg-gml', 'ruian-csv', 'sk-register', 'sk-rpo-json',
    ]);
    expect(importerFor('ruian-csv')).toMatchObject({ target: 'places', layer: 'addresses' });
    expect(importerFor('cz-catalogue-csv')).toMatchObject({ target: 'places', layer: 'catalogue' });
    expect(() => importerFor('xx-unknown')).toThrow(expect.objectContaining({ permanent: true, message: expect.stringMatching(/^format: no importer for "xx-unknown"/) }));
  });
});
