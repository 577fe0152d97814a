import { join } from 'node:path';
import { OpenSearchPlacesStore, ruianPlaceDocs } from '@lookup/places';
import { loadConfig, projectRoot } from '@lookup/shared/config';
import { createOpenSearchClient, importLocksIndex } from '@lookup/shared/search';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { runImport } from '../import.command';
import { DatasetRunner } from './dataset-runner';
import { importerFor, PlacesImporter } from './importers';
import { writeRuianFixture } from './ruian-fixture.testing';
import { ChangeBatchRunner, ruianChangeStatePath, skChangeStatePath } from '../changes';

const PSC_LIST = join(projectRoot(), 'libs/places/src/fixtures/cz/psc-list.csv');

async function until(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what}: not reached in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The distributed profile's imports run in separate processes (the indexer, `lookup import`
 * from a shell); this test runs two in one, which the lease treats alike (it never takes over
 * from a live holder). Before the lease, the second build's clean-up deleted the first one's
 * half-built index, and a later switch dropped what an earlier one brought.
 */
describeWith(['opensearch'], 'two imports of one country at once (OpenSearch)', () => {
  const dir = tempDir('concurrent-os-');
  const prefix = uniqueName('conc');
  const alias = `${prefix}-places`;
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  // Each import its own store and client, as in its own process (runImport closes the store it is given).
  const newStore = () => new OpenSearchPlacesStore(createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 }), prefix);
  const store = newStore();
  const config = loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path });

  beforeAll(async () => {
    await store.init();
  });
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
    await store.close();
    dir.remove();
  });

  it("a catalogue import started while the indexer builds the country's addresses waits for it: both go live, nothing of either is lost", async () => {
    const catalogue = ['catalogue', 'CZ', '--psc-list', PSC_LIST];
    await runImport(catalogue, config, () => undefined, newStore());
    const zip = writeRuianFixture(dir.path, { rows: 20000, streetPrefix: 'Soubezna' });
    const event = Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: zip, publishedAt: new Date().toISOString() });
    // The address import holds after its first batch until the catalogue import has started (or 20 s).
    let started!: () => void;
    const gate = new Promise<void>((r) => (started = r));
    const ruian = importerFor('ruian-csv') as PlacesImporter;
    let written = false;
    const held: PlacesImporter = {
      ...ruian,
      async *docs(ctx) {
        for await (const batch of ruian.docs(ctx)) {
          yield batch;
          if (!written) {
            written = true;
            await Promise.race([gate, new Promise((r) => setTimeout(r, 20000))]);
          }
        }
      },
    };
    const indexer = newStore();
    const addresses = new DatasetRunner({ places: indexer, config: {} }).run(event, {}, held).finally(() => indexer.close());
    addresses.catch(() => undefined);

    // The address build has begun: its index is being written.
    await until('the address build writing its version', async () => {
      const rows = (await client.cat.indices({ index: `${alias}-cz-*`, format: 'json' } as never)).body as Array<{ index: string }>;
      const live = (await store.liveVersion('CZ'))!.version;
      return written && rows.some((r) => !r.index.endsWith(live));
    }, 60000);
    const lines: string[] = [];
    const progress: number[] = [];
    const recatalogue = runImport(catalogue, config, (l) => lines.push(l), newStore(), { onProgress: (p) => progress.push(p.docs) });
    recatalogue.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000));
    started();

    const a = await addresses;
    const b = await recatalogue;
    expect(lines.some((l) => l.startsWith('waiting for another import to finish: import addresses CZ (ruian-csv) ') && l.includes(`pid ${process.pid}`))).toBe(true);
    // The catalogue import began after the address version went live, so it carried those addresses.
    expect(b.version > a.version).toBe(true);
    expect((await store.liveVersion('CZ'))!.version).toBe(b.version);
    expect(b.previous).toEqual({ version: a.version, docs: a.docs });
    expect(b.docs).toBe(a.docs);
    // Its progress counted the carried addresses too (before, a re-import said nothing until the catalogue's few documents).
    expect(progress.some((n) => n >= 20000)).toBe(true);
    expect(progress[progress.length - 1]).toBe(b.docs);
    expect(progress.every((n, i) => i === 0 || n >= progress[i - 1])).toBe(true);

    const ids: string[] = [];
    for await (const batch of ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList: PSC_LIST } })) ids.push(...batch.filter((d) => d.object === 'address').map((d) => d.place_id));
    const res = await client.count({ index: alias, body: { query: { bool: { filter: [{ term: { country: 'CZ' } }, { term: { object: 'address' } }] } } } as never });
    expect((res.body as { count: number }).count).toBe(ids.length);
    expect(ids.length).toBe(20000);
    expect((await store.list('CZ', 'municipality')).length).toBeGreaterThan(0);

    // One CZ index left, no lease left behind.
    const rows = (await client.cat.indices({ index: `${alias}-cz-*`, format: 'json' } as never)).body as Array<{ index: string }>;
    expect(rows.map((r) => r.index)).toEqual([`${alias}-cz-${b.version}`]);
    const lease = await client.get({ index: importLocksIndex(prefix), id: 'places:CZ' } as never).catch((err: { meta?: { statusCode?: number } }) => err.meta?.statusCode);
    expect(lease).toBe(404);
  }, 300000);

  it("a catalogue import waiting for its country does not hold up another country's from the same data directory; its time leaves the wait out", async () => {
    const holder = newStore();
    await holder.init();
    const lease = await holder.lockImports('CZ', 'import addresses CZ (held by the test)');
    const czLines: string[] = [];
    const cz = runImport(['catalogue', 'CZ', '--psc-list', PSC_LIST], config, (l) => czLines.push(l), newStore());
    cz.catch(() => undefined);
    await until('the CZ import waiting', async () => czLines.some((l) => l.startsWith('waiting for another import to finish: import addresses CZ (held by the test)')), 30000);
    // Before: `another import is running into this data directory (... catalogue CZ ...)`, at once.
    const liLines: string[] = [];
    const li = await runImport(['catalogue', 'LI', '--geonames', join(projectRoot(), 'libs/places/src/fixtures/sample/geonames/LI.txt')], config, (l) => liLines.push(l), newStore());
    expect(li.version).toBe((await store.liveVersion('LI'))!.version);
    const said = liLines.map((l) => /^LI: \d+ regions, \d+ counties, (\d+) municipalities/.exec(l)).find(Boolean);
    expect(Number(said?.[1])).toBeGreaterThan(0);
    expect((await store.list('LI', 'municipality')).length).toBe(Number(said![1]));
    expect(liLines.filter((l) => l.startsWith('waiting'))).toEqual([]);

    const heldMs = 2500;
    await new Promise((r) => setTimeout(r, heldMs));
    await lease.release();
    await holder.close();
    const r = await cz;
    expect(r.waitedSeconds).toBeGreaterThanOrEqual(heldMs / 1000);
    expect(czLines).toContainEqual(expect.stringMatching(/^the other import has finished after \d+ s; starting$/));
    expect(czLines).toContainEqual(expect.stringMatching(new RegExp(`^CZ: .* in [\\d.]+ s \\(after waiting ${Math.round(r.waitedSeconds!)} s for another import of CZ\\)$`)));
    expect(r.notes).toContainEqual(expect.stringMatching(/^waited \d+ s for another import of the same data to finish/));
  }, 120000);

  it('a change batch waits for a build of its country, and its time leaves the wait out', async () => {
    const holder = newStore();
    await holder.init();
    const lease = await holder.lockImports('CZ', 'import addresses CZ (held by the test)');
    const vfr = join(projectRoot(), 'libs/places/src/fixtures/ruian-vfr/20240102_ST_ZKSH_fixture.xml');
    const writer = newStore();
    await writer.init();
    const runner = new ChangeBatchRunner({ places: writer, statePath: skChangeStatePath(config), ruianStatePath: ruianChangeStatePath(config) });
    const waiting: string[] = [];
    const event = Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'address-changes', format: 'ruian-vfr', location: vfr, publishedAt: new Date().toISOString() });
    const run = runner.run(event, { onWait: (l) => waiting.push(l) });
    run.catch(() => undefined);
    await until('the change batch waiting', async () => waiting.some((l) => l.startsWith('waiting for another import to finish: import addresses CZ (held by the test)')), 30000);
    const heldMs = 2000;
    await new Promise((r) => setTimeout(r, heldMs));
    await lease.release();
    await holder.close();
    const r = await run;
    await writer.close();
    expect(r.changes.newRecords).toBeGreaterThan(0);
    expect(r.waitedSeconds).toBeGreaterThanOrEqual(heldMs / 1000);
    expect(r.notes).toEqual([expect.stringMatching(/^waited \d+ s for another import of the same data to finish \(not counted in the time above\)$/)]);
  }, 120000);
});
