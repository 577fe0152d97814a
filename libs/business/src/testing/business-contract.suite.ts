import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Business, BusinessIdentifierRequest, BusinessQueryRequest, DomainError, parseRequest } from '@lookup/contracts';
import { BusinessService } from '../business.service';
import { BusinessStore } from '../store/business.store';
import { importBusiness } from '../importers/business-import';
import { ARES_RENAME, CZ_GENERATED, GeneratedEntity, SK_GENERATED, sampleFixtureDir, writeBusinessFixture } from '../fixtures/business-fixture.builder';

/**
 * One behaviour, two engines: the same fixture register imported through the real readers, the
 * same requests, the same expected answers, whichever store `makeStore` returns.
 */
export function businessContractSuite(engine: string, makeStore: () => Promise<BusinessStore>, dir: () => string): void {
  let store: BusinessStore;
  let service: BusinessService;
  let entities: GeneratedEntity[];

  const byName = (plain: Record<string, unknown>) => service.byName(parseRequest(BusinessQueryRequest, plain));
  const byCin = (plain: Record<string, unknown>) => service.byIdentifier(parseRequest(BusinessIdentifierRequest, plain));
  const names = (rs: Business[]) => rs.map((r) => r.name);

  beforeAll(async () => {
    store = await makeStore();
    const fx = writeBusinessFixture(dir(), sampleFixtureDir());
    entities = fx.entities;
    const report = await importBusiness(store, fx.sources, 'fixture');
    // 9 sample RES rows (one without a name), 4 sample RPO entities, the generated ones.
    expect(report).toMatchObject({ docs: 8 + 4 + CZ_GENERATED + SK_GENERATED, skipped: 1, refreshed: 3 });
    service = new BusinessService(store);
  });

  afterAll(async () => {
    await store?.close();
  });

  it(`${engine}: finds a name by prefix, diacritics-insensitive, highlighting the typed part`, async () => {
    const [first] = await byName({ query: 'skod' });
    expect(first).toMatchObject({ business_id: 'cz_00177041', name: 'ŠKODA AUTO a.s.', highlight: '<em>ŠKOD</em>A AUTO a.s.', object: 'business' });
  });

  it(`${engine}: any word order`, async () => {
    expect(names(await byName({ query: 'auto skoda' }))[0]).toBe('ŠKODA AUTO a.s.');
  });

  it(`${engine}: returns every field of the spec's entity, null where the register has no value`, async () => {
    const [skoda] = await byName({ query: 'škoda auto a.s.' });
    expect(skoda).toEqual({
      business_id: 'cz_00177041',
      highlight: '<em>ŠKODA</em> <em>AUTO</em> <em>a.s.</em>',
      name: 'ŠKODA AUTO a.s.',
      established_on: '1990-11-20',
      terminated_on: null,
      cin: '00177041',
      tin: 'CZ00177041',
      vatin: 'CZ00177041',
      formatted_address: 'tř. Václava Klementa 869, 293 01 Mladá Boleslav',
      street: 'tř. Václava Klementa',
      formatted_street: 'tř. Václava Klementa 869',
      street_number: '869',
      building_number: null,
      formatted_number: '869',
      postal_code: '293 01',
      municipality: 'Mladá Boleslav',
      legal_form: 'Akciová společnost',
      segment: 'Zpracovatelský průmysl',
      organization_size: '5000 - 9999 zaměstnanců',
      object: 'business',
      formatted_country: 'Česko',
      country: 'CZ',
    });
  });

  it(`${engine}: vatin only where the VAT registration is active`, async () => {
    const [alza] = await byCin({ query: '27082440' });
    expect([alza.tin, alza.vatin]).toEqual(['CZ27082440', null]);
  });

  it(`${engine}: legal-form suffix variants are equal`, async () => {
    for (const q of ['tatra trade s.r.o.', 'tatra trade s. r. o.', 'tatra trade spol. s r.o.', 'Tatra trade sro']) {
      expect([q, names(await byName({ query: q })).sort()]).toEqual([q, ['TATRA TRADE spol. s r.o.', 'Tatra Trade s. r. o.']]);
    }
    const as = await byName({ query: 'slovnaft a. s.' });
    expect(as.map((r) => [r.name, r.highlight])).toEqual([['Slovnaft, a.s.', '<em>Slovnaft</em>, <em>a.s.</em>']]);
  });

  it(`${engine}: the same name in both countries, told apart by country`, async () => {
    const both = await byName({ query: 'tatra trade' });
    expect(both.map((r) => r.business_id).sort()).toEqual(['cz_25596641', 'sk_35741216']);
    const sk = await byName({ query: 'tatra trade', country: 'SK' });
    expect(sk.map((r) => [r.business_id, r.formatted_country, r.street_number, r.formatted_street])).toEqual([['sk_35741216', 'Slovensko', null, 'Hlavná 12']]);
  });

  it(`${engine}: terminated entities rank below existing ones with the same name; active=true drops them`, async () => {
    const all = await byName({ query: 'pekarna lisen' });
    expect(all.map((r) => [r.cin, r.terminated_on])).toEqual([
      ['60193336', null],
      ['45193070', '2015-08-31'],
    ]);
    for (const active of ['true', '1', true]) {
      expect((await byName({ query: 'pekarna lisen', active })).map((r) => r.cin)).toEqual(['60193336']);
    }
    expect((await byName({ query: 'pekarna lisen', active: 'false' })).length).toBe(2);
  });

  it(`${engine}: an exact-diacritics match ranks first`, async () => {
    expect(names(await byName({ query: 'pekáreň' }))[0]).toBe('Pekáreň u Horvátha s.r.o.');
  });

  it(`${engine}: sole traders by name, with their address`, async () => {
    const [novak] = await byName({ query: 'novák jan' });
    expect(novak).toMatchObject({ name: 'Jan Novák', legal_form: 'Fyzická osoba podnikající dle živnostenského zákona', formatted_address: 'Podvihov 59, 747 06 Opava', street: null, building_number: null });
    const [eva] = await byName({ query: 'dvorakova' });
    expect(eva).toMatchObject({ street_number: 'č. ev. 59', formatted_street: 'Litovice č. ev. 59' });
    const [horvath] = await byName({ query: 'horvath ph' });
    expect(horvath).toMatchObject({ business_id: 'sk_44556677', terminated_on: '2019-12-31', street_number: '214', formatted_street: 'Prievidza 214' });
  });

  it(`${engine}: name changes: the current name is shown and searched, the former is not`, async () => {
    const changed = entities.find((e) => e.formerName)!;
    const hits = await byName({ query: changed.name, country: 'SK' });
    expect(hits.some((r) => r.cin === changed.cin && r.name === changed.name)).toBe(true);
    expect((await byName({ query: changed.formerName! })).filter((r) => r.name === changed.formerName)).toEqual([]);
    const renamedCin = entities.filter((e) => e.country === 'CZ')[ARES_RENAME.index];
    const [renamed] = await byName({ query: 'přejmenovaná' });
    expect(renamed).toMatchObject({ cin: renamedCin.cin, name: ARES_RENAME.name, vatin: `CZ${renamedCin.cin}`, organization_size: expect.any(String) });
    expect(renamed.organization_size).not.toBe('');
  });

  it(`${engine}: text addresses when the register has no address columns; highlight is HTML-escaped`, async () => {
    const [bata] = await byName({ query: 'bata & syn' });
    expect(bata).toMatchObject({ name: 'Baťa & syn, s.r.o.', highlight: '<em>Baťa</em> &amp; <em>syn</em>, s.r.o.', formatted_address: 'Chata 14, 716 00 Ostrava' });
  });

  it(`${engine}: IČO with or without leading zeros and spaces, and by prefix while typing`, async () => {
    for (const query of ['00177041', '177041', '001 77 041', 177041]) {
      const [first] = await byCin({ query });
      expect([query, first?.business_id]).toEqual([query, 'cz_00177041']);
    }
    const typing = await byCin({ query: '0017' });
    expect(typing[0]).toMatchObject({ cin: '00177041', name: 'ŠKODA AUTO a.s.', highlight: 'ŠKODA AUTO a.s.' });
    const gen = entities.find((e) => e.country === 'SK')!;
    const prefix = await byCin({ query: gen.cin.slice(0, 5), limit: 20 });
    expect(prefix.map((r) => r.cin)).toContain(gen.cin);
    expect(prefix.every((r) => r.cin.startsWith(gen.cin.slice(0, 5)) || r.cin.replace(/^0+/, '').startsWith(gen.cin.slice(0, 5)))).toBe(true);
  });

  it(`${engine}: limit defaults to 7 and goes up to 20; results are deduplicated`, async () => {
    const seven = await byName({ query: 'a' });
    expect(seven.length).toBe(7);
    const twenty = await byName({ query: 'sro', limit: '20' });
    expect(twenty.length).toBe(20);
    expect(new Set(twenty.map((r) => r.business_id)).size).toBe(20);
    expect(() => parseRequest(BusinessQueryRequest, { query: 'x', limit: '21' })).toThrow(DomainError);
  });

  it(`${engine}: detail by id is an array of one; an unknown id is a 404`, async () => {
    const [one, ...rest] = await service.detail({ business_id: 'sk_31322832' });
    expect(rest).toEqual([]);
    expect(one).toMatchObject({ name: 'Slovnaft, a.s.', highlight: 'Slovnaft, a.s.', postal_code: '824 12', segment: 'Priemyselná výroba', legal_form: 'Akciová spoločnosť' });
    await expect(service.detail({ business_id: 'cz_99999999' })).rejects.toMatchObject({ status: 404, param: 'business_id' });
  });

  it(`${engine}: a query of punctuation only is a clear error naming query`, async () => {
    await expect(byName({ query: '.,-' })).rejects.toMatchObject({ type: 'invalid_parameter', param: 'query' });
  });
}
