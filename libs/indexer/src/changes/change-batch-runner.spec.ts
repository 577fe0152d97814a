import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '@lookup/shared/config';
import { createPlacesStore, PlacesStore, skRegisterPlaceDocs } from '@lookup/places';
import { tempDir } from '@lookup/shared/testing';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { DatasetTestServer } from '../download/dataset-server.testing';
import { PermanentDatasetError } from '../pipeline';
import { ChangeBatchRunner } from './change-batch-runner';
import { skChangeStatePath } from './sk-change-applier';

const SK = resolve(__dirname, '../../../places/src/fixtures/sk');
const CHANGE = resolve(__dirname, '../../../places/src/importers/sk/sk-changes.fixture.xml');
const VFR = resolve(__dirname, '../../../places/src/fixtures/ruian-vfr/20240102_ST_ZKSH_fixture.xml');

function event(location: string, extra: Partial<DatasetUpdatedEvent> = {}): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'SK', kind: 'address-changes', format: 'sk-register-xml', location, publishedAt: '2026-11-01T00:00:00Z', ...extra });
}

describe('ChangeBatchRunner (address-changes events)', () => {
  const dir = tempDir();
  const server = new DatasetTestServer();
  let store: PlacesStore;
  let runner: ChangeBatchRunner;
  beforeAll(async () => {
    await server.start();
    const config = loadConfig({}, { DATA_DIR: dir.path });
    store = createPlacesStore(config);
    await store.init();
    runner = new ChangeBatchRunner({ places: store, statePath: skChangeStatePath(config), downloadDir: dir.path, downloadTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await store.close();
    await server.stop();
    dir.remove();
  });

  it('applies a local batch folder, then a batch fetched over http with its checksum, in place', async () => {
    const seed = await runner.run(event(SK));
    expect(seed).toMatchObject({ country: 'SK', kind: 'address-changes', version: 'incremental', previous: null, changes: { deletes: 0 } });
    expect(seed.docs).toBeGreaterThan(0);
    const body = readFileSync(CHANGE);
    server.paths.set('/zmeny.xml', { kind: 'file', body });
    const checksum = `sha256:${createHash('sha256').update(body).digest('hex')}`;
    const r = await runner.run(event(server.url('/zmeny.xml'), { checksum }));
    expect(r.changes).toMatchObject({ records: 4, newRecords: 4, deletes: 1 });
    expect((await store.get('sk_a10001'))!.name).toBe('Hlavná 1212/3, 010 01 Žilina');
    const again = await runner.run(event(server.url('/zmeny.xml'), { checksum }));
    expect(again.changes).toEqual({ records: 4, newRecords: 0, upserts: 0, deletes: 0 });
  });

  it('applies a RUIAN VFR change file (ruian-vfr, CZ) with its own state, and a second time writes nothing', async () => {
    // An empty store: only what the file itself names can be resolved, the rest is reported.
    const cz = { country: 'CZ' as const, format: 'ruian-vfr' };
    const r = await runner.run(event(VFR, cz));
    expect(r).toMatchObject({ country: 'CZ', version: 'incremental', changes: { records: 19, newRecords: 3, upserts: 1, deletes: 2 } });
    expect(r.errors.join('\n')).toMatch(/AdresniMisto 4192583: StavebniObjekt 1002 \(its type\) is unknown/);
    expect(r.errors.join('\n')).toMatch(/AdresniMisto 5000004: Obec 500020 has no name/);
    expect((await store.get('cz_a4192648'))!.name).toBe('Nová 9/3b, 763 11 Želechovice nad Dřevnicí');
    const again = await runner.run(event(VFR, cz));
    expect(again.changes).toEqual({ records: 19, newRecords: 0, upserts: 0, deletes: 0 });
  });

  it('after a dry run, the first batch after a full import is still folded with the imported register', async () => {
    const d = tempDir();
    const config = loadConfig({}, { DATA_DIR: d.path });
    const s = createPlacesStore(config);
    try {
      await s.init();
      // What `addresses SK <the fixture folder>` wrote; the status names that folder as the live SK address file.
      for await (const b of skRegisterPlaceDocs({ sources: [SK] })) await s.upsert(b);
      const r = new ChangeBatchRunner({ places: s, statePath: skChangeStatePath(config), skBaseline: () => SK });
      const dry = await r.run(event(CHANGE), { dryRun: true });
      expect(existsSync(skChangeStatePath(config))).toBe(false);
      const real = await r.run(event(CHANGE));
      expect(real.changes).toEqual(dry.changes);
      expect(real.skipped).toBe(dry.skipped);
      expect(real.changes.upserts).toBeGreaterThan(0);
      expect((await s.get('sk_a10001'))!.name).toBe('Hlavná 1212/3, 010 01 Žilina');
      expect((await r.run(event(CHANGE))).changes).toMatchObject({ newRecords: 0, upserts: 0, deletes: 0 });
    } finally {
      await s.close();
      d.remove();
    }
  });

  it('fails permanently on a wrong checksum, an unknown change format or a missing file', async () => {
    await expect(runner.run(event(CHANGE, { checksum: `sha256:${'0'.repeat(64)}` }))).rejects.toThrow(PermanentDatasetError);
    await expect(runner.run(event(server.url('/zmeny.xml'), { checksum: `sha256:${'0'.repeat(64)}` }))).rejects.toThrow(/checksum mismatch/);
    await expect(runner.run(event(CHANGE, { country: 'CZ', format: 'sk-register-xml' }))).rejects.toThrow(/^format: no change-batch reader for "sk-register-xml" of CZ/);
    await expect(runner.run(event(join(dir.path, 'none.xml')))).rejects.toThrow(/^location: .* does not exist/);
  });

  it('fails permanently, naming the file, on a batch that is not of its format (the same file fails the same way on every try)', async () => {
    const text = join(dir.path, 'zmeny.txt');
    writeFileSync(text, 'not a change batch\n');
    await expect(runner.run(event(text))).rejects.toMatchObject({ permanent: true, message: expect.stringContaining(text) });
    await expect(runner.run(event(text, { country: 'CZ', format: 'ruian-vfr' }))).rejects.toMatchObject({ permanent: true, message: expect.stringContaining(text) });
  });
});
