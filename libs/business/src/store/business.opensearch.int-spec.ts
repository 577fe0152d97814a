import { Logger } from '@nestjs/common';
import { BusinessIdentifierRequest, BusinessQueryRequest, parseRequest } from '@lookup/contracts';
import { createOpenSearchClient, versionedIndexName } from '@lookup/shared/search';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { OpenSearchBusinessStore } from './opensearch-business.store';
import { businessContractSuite } from '../testing/business-contract.suite';
import { BusinessService } from '../business.service';
import { BF, BusinessDoc } from '../domain/business.doc';
import { indexedFields } from './business-index';
import { BUSINESS_ALIAS_SUFFIX, BUSINESS_INDEX } from './business.mapping';

describeWith(['opensearch'], 'business search on OpenSearch', () => {
  const dir = tempDir('business-os-');
  const prefix = uniqueName('biz');
  afterAll(async () => {
    const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    dir.remove();
  });
  businessContractSuite('opensearch', async () => {
    const store = new OpenSearchBusinessStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 }), prefix);
    await store.init();
    return store;
  }, () => dir.path);
});

describeWith(['opensearch'], 'business search on an OpenSearch index made before the packed column', () => {
  const prefix = uniqueName('bizold');
  const alias = `${prefix}-${BUSINESS_ALIAS_SUFFIX}`;
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
  const entity = (id: string, name: string): BusinessDoc => ({
    business_id: `cz_${id}`, country: 'CZ', name, established_on: '2001-02-03', terminated_on: null, cin: id, tin: null, vatin: null,
    street: 'Lihovarská', street_number: '79', building_number: '22a', postal_code: '74601', municipality: 'Opava', district: 'Opava',
    legal_form: 's.r.o.', legal_form_code: '112', segment: '', organization_size: '',
  });
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
  });

  it('reads its hits through _source, takes new documents, and reads the column once a new version has it', async () => {
    const { [BF.packed]: _packed, ...properties } = BUSINESS_INDEX.mappings['properties'] as Record<string, unknown>;
    const { _source: _excludes, ...older } = BUSINESS_INDEX.mappings;
    await client.indices.create({ index: versionedIndexName(alias, 1), body: { settings: BUSINESS_INDEX.settings, mappings: { ...older, properties }, aliases: { [alias]: {} } } as never });
    // Documents as the store wrote them before the column.
    const old = [entity('27082440', 'Lihovar Opava s.r.o.'), entity('00177041', 'Lihovarnictví Novák s.r.o.')];
    const body = old.flatMap((d) => [{ index: { _index: alias, _id: d.business_id } }, { business_id: d.business_id, country: d.country, cin: d.cin, doc: d, ...indexedFields(d), name_tokens: indexedFields(d).name_key }]);
    const bulk = await client.bulk({ body: body as never, refresh: true });
    expect((bulk.body as { errors: boolean }).errors).toBe(false);

    const store = new OpenSearchBusinessStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 }), prefix);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const now = jest.spyOn(Date, 'now');
    const warnings = () => warn.mock.calls.filter(([m]) => String(m).includes('without packed documents'));
    try {
      await store.init();
      const service = new BusinessService(store);
      const names = (query: string) => service.byName(parseRequest(BusinessQueryRequest, { query })).then((r) => r.map((b) => b.name).sort());
      expect(await names('lihovar')).toEqual(['Lihovar Opava s.r.o.', 'Lihovarnictví Novák s.r.o.']);
      expect(store.readsPacked).toBe(false);
      expect(warnings()).toHaveLength(1);
      expect(String(warnings()[0][0])).toContain(versionedIndexName(alias, 1));
      // The strict mapping got the column at start, so a document that carries it is taken.
      await store.upsert([entity('45274649', 'Lihovarská Pekárna a.s.')]);
      now.mockReturnValue(Date.now() + 61_000);
      expect(await names('pekarna')).toEqual(['Lihovarská Pekárna a.s.']);
      expect(store.readsPacked).toBe(true);
      expect(await names('lihovar')).toEqual(['Lihovar Opava s.r.o.', 'Lihovarnictví Novák s.r.o.', 'Lihovarská Pekárna a.s.']);
      expect(store.readsPacked).toBe(false);
      expect(warnings()).toHaveLength(1);

      await store.replaceAll(
        (async function* () {
          yield [...old, entity('45274649', 'Lihovarská Pekárna a.s.')];
        })(),
      );
      now.mockReturnValue(Date.now() + 122_000);
      expect(await names('lihovar')).toEqual(['Lihovar Opava s.r.o.', 'Lihovarnictví Novák s.r.o.', 'Lihovarská Pekárna a.s.']);
      expect(await service.byIdentifier(parseRequest(BusinessIdentifierRequest, { query: '27082440' })).then((r) => r.map((b) => b.name))).toEqual(['Lihovar Opava s.r.o.']);
      expect(store.readsPacked).toBe(true);
      // The new index keeps the column out of the stored source.
      const got = await client.search({ index: alias, body: { query: { match_all: {} } } as never });
      for (const h of (got.body as { hits: { hits: Array<{ _source: Record<string, unknown> }> } }).hits.hits) expect(Object.keys(h._source)).not.toContain(BF.packed);
    } finally {
      now.mockRestore();
      warn.mockRestore();
      await store.close();
    }
  });
});
