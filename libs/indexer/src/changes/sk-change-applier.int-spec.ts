import { join, resolve } from 'node:path';
import { PlaceObject } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { createPlacesStore, PlaceDoc, PlacesStore, skRegisterPlaceDocs, SkChangeState } from '@lookup/places';
import { describeWith, describeWithData, serverUrl, sharedData, tempDir, uniqueName } from '@lookup/shared/testing';
import { applySkChangeBatch, ChangeBatchReport, skChangeStatePath, storeChangeSink } from './sk-change-applier';

const SK = resolve(__dirname, '../../../places/src/fixtures/sk');
const CATALOGUE = join(SK, 'DavkaInit-catalogue.xml');
const INIT = join(SK, 'DavkaInit-addresses.xml');
const CHANGE = join(SK, 'ZmenovaDavka-addresses.xml');
const BUILDING = resolve(__dirname, '../../../places/src/importers/sk/sk-changes.fixture.xml');
const DAVKY = sharedData('sk/davky.zip');
const ZMENA = sharedData('sk/zmenovadavka5156536.xml');

const OBJECTS: PlaceObject[] = ['address', 'street', 'postal_code', 'municipality', 'county', 'region'];

async function fullImport(sources: string[]): Promise<Map<string, PlaceDoc>> {
  const out = new Map<string, PlaceDoc>();
  for await (const b of skRegisterPlaceDocs({ sources })) for (const d of b) out.set(d.place_id, d);
  return out;
}

/**
 * Every SK document the store holds, read back one by one: the ids come from what a full import
 * gives and from everything the change state ever wrote, and per-object counts rule out extras.
 */
async function snapshot(store: PlacesStore, ids: Iterable<string>): Promise<{ docs: Map<string, PlaceDoc>; counts: number[] }> {
  const docs = new Map<string, PlaceDoc>();
  const sorted = [...new Set(ids)].sort();
  // 64 reads at a time: tens of thousands of ids one by one took minutes on OpenSearch.
  for (let i = 0; i < sorted.length; i += 64) {
    const chunk = sorted.slice(i, i + 64);
    const got = await Promise.all(chunk.map((id) => store.get(id)));
    got.forEach((d, k) => d && docs.set(chunk[k]!, d));
  }
  const counts: number[] = [];
  for (const o of OBJECTS) counts.push(await store.count('SK', o));
  return { docs, counts };
}

function countsOf(docs: Map<string, PlaceDoc>): number[] {
  return OBJECTS.map((o) => [...docs.values()].filter((d) => d.object === o).length);
}

/** The same checks on each engine. */
function changeBatchSuite(engine: string, setup: () => Promise<{ store: PlacesStore; statePath: string; cleanup(): Promise<void> }>): void {
  let store: PlacesStore;
  let statePath: string;
  let cleanup: () => Promise<void>;
  const written = new Set<string>();
  beforeAll(async () => {
    ({ store, statePath, cleanup } = await setup());
    await store.init();
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  async function apply(sources: string[]): Promise<ChangeBatchReport> {
    const r = await applySkChangeBatch({ sink: storeChangeSink(store), statePath, sources });
    const state = new SkChangeState(statePath).open();
    for (const id of state.docHashes().keys()) written.add(id);
    state.close();
    return r;
  }

  async function expectStoreEquals(sources: string[]): Promise<Map<string, PlaceDoc>> {
    const expected = await fullImport(sources);
    const got = await snapshot(store, [...expected.keys(), ...written, 'sk_a10005', 'sk_p81101']);
    expect(got.docs).toEqual(expected);
    expect(got.counts).toEqual(countsOf(expected));
    return got.docs;
  }

  it(`${engine}: a change batch applied to the store gives a full import's documents, and applied twice the same index`, async () => {
    const first = await apply([CATALOGUE, INIT]);
    expect(first.deletes).toBe(0);
    await expectStoreEquals([CATALOGUE, INIT]);
    const once = await apply([CHANGE]);
    expect(once.deletes).toBeGreaterThan(0);
    const afterOnce = await expectStoreEquals([CATALOGUE, INIT, CHANGE]);
    expect(afterOnce.has('sk_a10005')).toBe(false);
    const twice = await apply([CHANGE]);
    expect([twice.upserts, twice.deletes, twice.newRecords]).toEqual([0, 0, 0]);
    const afterTwice = await expectStoreEquals([CATALOGUE, INIT, CHANGE]);
    expect(afterTwice).toEqual(afterOnce);
  });

  it(`${engine}: re-resolves entrances of a changed building that the batch does not name`, async () => {
    await apply([BUILDING]);
    const docs = await expectStoreEquals([CATALOGUE, INIT, CHANGE, BUILDING]);
    expect(docs.get('sk_a10001')!.name).toBe('Hlavná 1212/3, 010 01 Žilina');
    expect(docs.has('sk_p81101')).toBe(false);
  });
}

describe('SK change batches on SQLite (standalone)', () => {
  changeBatchSuite('sqlite', async () => {
    const dir = tempDir();
    const config = loadConfig({}, { DATA_DIR: dir.path });
    return { store: createPlacesStore(config), statePath: skChangeStatePath(config), cleanup: async () => dir.remove() };
  });
});

describeWith(['opensearch'], 'SK change batches on OpenSearch (distributed)', () => {
  changeBatchSuite('opensearch', async () => {
    const dir = tempDir();
    const prefix = uniqueName('chg');
    const config = loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path });
    return {
      store: createPlacesStore(config),
      statePath: skChangeStatePath(config),
      cleanup: async () => {
        const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
        await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
        await client.close();
        dir.remove();
      },
    };
  });
});

/** The real 2016 batch on one engine: incremental result equals a full import of init + change, and a second run writes nothing. */
function realBatchTest(engine: string, setup: () => { store: PlacesStore; statePath: string; cleanup(): Promise<void> }): void {
  it(`${engine}: gives the documents of a full import of init + change batches, and the same index when applied twice`, async () => {
    const { store, statePath, cleanup } = setup();
    try {
      await store.init();
      const run = (sources: string[]) => applySkChangeBatch({ sink: storeChangeSink(store), statePath, sources });
      const init = await run([DAVKY]);
      const once = await run([ZMENA]);
      const expected = await fullImport([DAVKY, ZMENA]);
      const state = new SkChangeState(statePath).open();
      const ids = [...expected.keys(), ...state.docHashes().keys()];
      state.close();
      const afterOnce = await snapshot(store, ids);
      expect(afterOnce.docs).toEqual(expected);
      expect(afterOnce.counts).toEqual(countsOf(expected));
      const twice = await run([ZMENA]);
      expect([twice.upserts, twice.deletes, twice.newRecords]).toEqual([0, 0, 0]);
      expect(await snapshot(store, ids)).toEqual(afterOnce);
      console.log(
        `SK real change batch (${engine}): init ${init.records} records -> ${init.upserts} docs; change ${once.records} records (${once.newRecords} new) -> ` +
          `${once.upserts} upserts, ${once.deletes} deletes in ${once.seconds.toFixed(2)} s; again: ${twice.upserts} upserts, ${twice.deletes} deletes`,
      );
    } finally {
      await store.close();
      await cleanup();
    }
  }, 300_000);
}

describeWithData([DAVKY, ZMENA], 'the real 2016 change batch applied incrementally', () => {
  realBatchTest('sqlite', () => {
    const dir = tempDir();
    const config = loadConfig({}, { DATA_DIR: dir.path });
    return { store: createPlacesStore(config), statePath: skChangeStatePath(config), cleanup: async () => dir.remove() };
  });
  describeWith(['opensearch'], 'on OpenSearch', () => {
    realBatchTest('opensearch', () => {
      const dir = tempDir();
      const prefix = uniqueName('chgr');
      const config = loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path });
      return {
        store: createPlacesStore(config),
        statePath: skChangeStatePath(config),
        cleanup: async () => {
          const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
          await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
          await client.close();
          dir.remove();
        },
      };
    });
  });
});
