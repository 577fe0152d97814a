import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { SqliteBusinessStore } from './sqlite-business.store';
import { businessContractSuite } from '../testing/business-contract.suite';

describe('business search on SQLite (FTS5)', () => {
  const dir = tempDir('business-sqlite-');
  afterAll(() => dir.remove());
  businessContractSuite('sqlite', async () => {
    const store = new SqliteBusinessStore(join(dir.path, 'business.sqlite'));
    await store.init();
    return store;
  }, () => dir.path);
});

describe('SQLite business store: full replacement', () => {
  const dir = tempDir('business-sqlite-replace-');
  afterAll(() => dir.remove());
  const doc = (cin: string, name: string) =>
    ({ business_id: `cz_${cin}`, country: 'CZ', name, cin, terminated_on: null, established_on: null, tin: null, vatin: null, street: '', street_number: null, building_number: '', postal_code: '', municipality: '', district: '', legal_form: '', legal_form_code: '', segment: '', organization_size: '' }) as const;
  async function* batches(...bs: Array<Array<ReturnType<typeof doc>>>) {
    for (const b of bs) yield b.map((d) => ({ ...d }));
  }

  it('replaces the register whole, and a failed import leaves the old one answering', async () => {
    const store = new SqliteBusinessStore(join(dir.path, 'business.sqlite'));
    await store.init();
    await store.replaceAll(batches([doc('00000001', 'Stará firma s.r.o.'), doc('00000002', 'Druhá a.s.')]));
    await store.replaceAll(batches([doc('00000003', 'Nová firma s.r.o.')]));
    expect(await store.count()).toBe(1);
    expect((await store.byTokens(['firma'], [], { countries: null, activeOnly: false }, 10)).map((d) => d.cin)).toEqual(['00000003']);
    async function* failing() {
      yield [{ ...doc('00000004', 'Jiná') }];
      throw new Error('broken source');
    }
    await expect(store.replaceAll(failing())).rejects.toThrow('broken source');
    expect((await store.get('cz_00000003'))?.name).toBe('Nová firma s.r.o.');
    await store.upsert([{ ...doc('00000003', 'Přejmenovaná firma s.r.o.') }]);
    expect((await store.byNamePrefix('prejmenovana', { countries: null, activeOnly: false }, 5)).map((d) => d.cin)).toEqual(['00000003']);
    expect(await store.byTokens(['nova'], [], { countries: null, activeOnly: false }, 5)).toEqual([]);
    await store.close();
  });
});
