import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { createPlacesStore, PlaceDoc, PlacesStore, ruianPlaceDocs, RuianVfrState } from '@lookup/places';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { runDatasetImport } from '../cli/dataset-import';
import { applyRuianVfrBatch, ruianChangeStatePath, RuianChangeReport } from './ruian-change-applier';
import { storeChangeSink } from './sk-change-applier';

const FIXTURES = resolve(__dirname, '../../../places/src/fixtures');
const BEFORE = join(FIXTURES, 'ruian/CSV');
/** The RUIAN CSV fixture with the VFR fixture's changes made by hand: what the next monthly file would hold. */
const AFTER = join(FIXTURES, 'ruian-vfr/after-CSV');
const VFR = join(FIXTURES, 'ruian-vfr/20240102_ST_ZKSH_fixture.xml');
const PSC_LIST = join(FIXTURES, 'cz/psc-list.csv');

async function fullImport(dir: string): Promise<Map<string, PlaceDoc>> {
  const out = new Map<string, PlaceDoc>();
  for await (const b of ruianPlaceDocs({ zipOrDir: dir, catalogue: { pscList: PSC_LIST } })) for (const d of b) out.set(d.place_id, d);
  return out;
}

/** Every document the store holds among these ids (read back one by one), and the per-object counts. */
async function snapshot(store: PlacesStore, ids: Iterable<string>): Promise<{ docs: Map<string, PlaceDoc>; addresses: number; streets: number; postal: number }> {
  const docs = new Map<string, PlaceDoc>();
  for (const id of [...new Set(ids)].sort()) {
    const d = await store.get(id);
    if (d) docs.set(id, d);
  }
  return { docs, addresses: await store.count('CZ', 'address'), streets: await store.count('CZ', 'street'), postal: await store.count('CZ', 'postal_code') };
}

function addressesOf(docs: Map<string, PlaceDoc>): Map<string, PlaceDoc> {
  return new Map([...docs].filter(([, d]) => d.object === 'address'));
}

/** The same checks on each engine. */
function vfrSuite(engine: string, setup: () => Promise<{ store: PlacesStore; statePath: string; dir: string; cleanup(): Promise<void> }>): void {
  let store: PlacesStore;
  let statePath: string;
  let dir: string;
  let cleanup: () => Promise<void>;
  let before: Map<string, PlaceDoc>;
  let after: Map<string, PlaceDoc>;
  let ids: string[];
  beforeAll(async () => {
    ({ store, statePath, dir, cleanup } = await setup());
    await store.init();
    await store.bulkLoad(ruianPlaceDocs({ zipOrDir: BEFORE, catalogue: { pscList: PSC_LIST } }));
    before = await fullImport(BEFORE);
    after = await fullImport(AFTER);
    ids = [...before.keys(), ...after.keys(), 'cz_a4192699', 'cz_a4192700'];
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  const apply = (sources: string[], dryRun = false): Promise<RuianChangeReport> =>
    applyRuianVfrBatch({ store, sink: storeChangeSink(store), statePath, sources, dryRun });

  it(`${engine}: a truncated change file fails with a clear error and writes nothing`, async () => {
    const text = readFileSync(VFR, 'utf8');
    const cut = join(dir, '20240102_ST_ZKSH_truncated.xml');
    // Cut after the first changed address: a reader applying as it goes would already have written it.
    writeFileSync(cut, text.slice(0, text.indexOf('<vf:AdresniMisto gml:id="AD.5000004">')));
    const untouched = await snapshot(store, ids);
    await expect(apply([cut])).rejects.toThrow(/^20240102_ST_ZKSH_truncated\.xml: .*unclosed/i);
    expect(await snapshot(store, ids)).toEqual(untouched);
    const state = new RuianVfrState(statePath).open();
    expect([state.batches(), state.address('4192583')]).toEqual([[], undefined]);
    state.close();
  });

  it(`${engine}: a dry run reports the changes and writes nothing`, async () => {
    const untouched = await snapshot(store, ids);
    const r = await apply([VFR], true);
    expect(r).toMatchObject({ upserts: 4, deletes: 2, dryRun: true });
    expect(await snapshot(store, ids)).toEqual(untouched);
  });

  it(`${engine}: changes, adds and deletes addresses as a full import of the next CSV would, and applied twice gives the same index`, async () => {
    const once = await apply([VFR]);
    expect(once).toMatchObject({ country: 'CZ', records: 19, alreadyApplied: 0, applied: 6, upserts: 4, deletes: 2, resolvedFromStore: 1, skipped: 2 });
    expect(once.errors).toEqual([
      expect.stringMatching(/^20240102_ST_ZKSH_fixture\.xml line \d+: AdresniMisto 4192700: Psc "7631" is not five digits$/),
      expect.stringMatching(/^AdresniMisto 4192699: StavebniObjekt 1999 \(its type\) is unknown/),
    ]);
    const afterOnce = await snapshot(store, ids);
    // Every address document equals the full import's: changed (4192583: č.o. 12 -> 16, PSČ 76312),
    // added (4192648 on a new street, 5000004 č.ev., 21700002 in Praha with MOMC and MOP), and
    // the ended ones (4192591 by ZaniklyPrvek, 5000003 by PlatiDo) are gone.
    expect(addressesOf(afterOnce.docs)).toEqual(addressesOf(after));
    expect(afterOnce.addresses).toBe(addressesOf(after).size);
    expect(afterOnce.docs.get('cz_a4192583')!.name).toBe('Přílucká 2/16, 763 12 Želechovice nad Dřevnicí');
    expect(afterOnce.docs.has('cz_a4192591')).toBe(false);
    expect(afterOnce.docs.has('cz_a5000003')).toBe(false);
    // Derived documents are left as the last full import wrote them.
    for (const [id, d] of before) if (d.object !== 'address') expect(afterOnce.docs.get(id)).toEqual(d);

    const twice = await apply([VFR]);
    expect(twice).toMatchObject({ alreadyApplied: 6, applied: 0, upserts: 0, deletes: 0 });
    expect(await snapshot(store, ids)).toEqual(afterOnce);
    const state = new RuianVfrState(statePath).open();
    expect(state.batches().map((b) => [b.upserts, b.deletes])).toEqual([[4, 2], [0, 0]]);
    state.close();
  });
}

describe('RUIAN VFR change files on SQLite (standalone)', () => {
  vfrSuite('sqlite', async () => {
    const dir = tempDir();
    const config = loadConfig({}, { DATA_DIR: dir.path });
    return { store: createPlacesStore(config), statePath: ruianChangeStatePath(config), dir: dir.path, cleanup: async () => dir.remove() };
  });
});

describeWith(['opensearch'], 'RUIAN VFR change files on OpenSearch (distributed)', () => {
  vfrSuite('opensearch', async () => {
    const dir = tempDir();
    const prefix = uniqueName('vfr');
    const config = loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path });
    return {
      store: createPlacesStore(config),
      statePath: ruianChangeStatePath(config),
      dir: dir.path,
      cleanup: async () => {
        const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
        await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
        await client.close();
        dir.remove();
      },
    };
  });
});

describe('import CLI: address-changes CZ (ruian-vfr is the default CZ change format)', () => {
  const dir = tempDir();
  const config = loadConfig({}, { DATA_DIR: dir.path });
  afterAll(() => dir.remove());

  it('imports the monthly CSV through the pipeline, then applies the change file in place, and nothing the second time', async () => {
    const out: string[] = [];
    const deps = { out: (l: string) => void out.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 0 };
    await runDatasetImport(['addresses', 'CZ', BEFORE], config, deps);
    await runDatasetImport(['address-changes', 'CZ', VFR], config, deps);
    await runDatasetImport(['address-changes', 'CZ', VFR], config, deps);
    expect(out.filter((l) => !l.startsWith('  '))).toEqual([
      expect.stringMatching(/^CZ addresses \(ruian-csv\): version \S+ live in sqlite/),
      expect.stringMatching(/^CZ address-changes \(ruian-vfr\): 19 records \(6 new\), 4 documents upserted, 2 deleted in sqlite/),
      expect.stringMatching(/^CZ address-changes \(ruian-vfr\): 19 records \(0 new\), 0 documents upserted, 0 deleted in sqlite/),
    ]);
    const store = createPlacesStore(config);
    await store.init();
    try {
      const expected = await fullImport(AFTER);
      expect(await store.get('cz_a21700002')).toEqual(expected.get('cz_a21700002'));
      expect(await store.get('cz_a4192591')).toBeNull();
    } finally {
      await store.close();
    }
  });
});
