import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PlacesSearchService, ruianPlaceDocs, SqlitePlacesStore } from '@lookup/places';
import { SqliteBusinessStore } from '@lookup/business';
import { projectRoot } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { DatasetRunner } from './dataset-runner';
import { writeRuianFixture } from './ruian-fixture.testing';
import { DatasetTestServer } from '../download/dataset-server.testing';

const PSC_LIST = join(projectRoot(), 'libs/places/src/fixtures/cz/psc-list.csv');

function event(location: string, extra: Partial<DatasetUpdatedEvent> = {}): DatasetUpdatedEvent {
  return Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location, publishedAt: '2026-11-01T00:00:00Z', ...extra });
}

/** Every place_id the importer gives for a file: what the live version must hold exactly. */
async function sourceIds(zip: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const b of ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList: PSC_LIST } })) ids.push(...b.map((d) => d.place_id));
  return ids.sort();
}

function storedIds(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT place_id FROM places WHERE country = 'CZ' ORDER BY place_id").pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

const street = (svc: PlacesSearchService, q: string) => svc.street({ query: q, country: ['CZ'], limit: 5 } as never).then((r) => r.map((p) => p.place_id));

describe('dataset runner on SQLite (standalone, in-process)', () => {
  const dir = tempDir('pipeline-sqlite-');
  const file = join(dir.path, 'places.sqlite');
  let oldZip: string;
  let newZip: string;
  let store: SqlitePlacesStore;
  let runner: DatasetRunner;

  beforeAll(async () => {
    oldZip = writeRuianFixture(dir.path, { rows: 1500, streetPrefix: 'Stara' });
    newZip = writeRuianFixture(dir.path, { rows: 20000, streetPrefix: 'Nova', admBase: 91_000_000 });
    store = new SqlitePlacesStore(file);
    await store.init();
    runner = new DatasetRunner({ places: store, config: {} });
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('builds the first version, then re-indexes while searches keep answering from the old one', async () => {
    const first = await runner.run(event(oldZip));
    expect(first).toMatchObject({ country: 'CZ', format: 'ruian-csv', previous: null, skipped: 0 });
    expect(storedIds(file)).toEqual(await sourceIds(oldZip));
    const svc = new PlacesSearchService(store);
    const oldAnswer = await street(svc, 'Stara12');
    expect(oldAnswer.length).toBeGreaterThan(0);

    let done = false;
    const answers: string[][] = [];
    const poll = (async () => {
      while (!done) {
        answers.push(await street(svc, 'Stara12'));
        await new Promise((r) => setImmediate(r));
      }
    })();
    const second = await runner.run(event(newZip)).finally(() => (done = true));
    await poll;
    expect(second.previous).toEqual({ version: first.version, docs: first.docs });
    expect(answers.length).toBeGreaterThan(5);
    // Every answer during the run came from the old version.
    for (const a of answers) expect(a).toEqual(oldAnswer);
    expect(await street(svc, 'Stara12')).toEqual([]);
    expect((await street(svc, 'Nova12')).length).toBeGreaterThan(0);
    expect(storedIds(file)).toEqual(await sourceIds(newZip));
  });

  it('after a crash mid-build (half-written file left behind) the old version serves and the next run completes exactly', async () => {
    const before = storedIds(file);
    // A build that "dies": begun and loaded halfway, never committed nor aborted.
    const crashed = new SqlitePlacesStore(file);
    await crashed.init();
    const build = await crashed.beginVersion({ country: 'CZ', replace: 'all' });
    let n = 0;
    async function* half() {
      for await (const b of ruianPlaceDocs({ zipOrDir: oldZip, catalogue: { pscList: PSC_LIST } })) {
        yield b;
        if ((n += b.length) > 500) return;
      }
    }
    await build.load(half());
    expect(existsSync(`${file}.import`)).toBe(true);
    expect(storedIds(file)).toEqual(before);
    await crashed.close();

    const restarted = new SqlitePlacesStore(file);
    await restarted.init();
    const r = await new DatasetRunner({ places: restarted, config: {} }).run(event(oldZip), { force: true });
    expect(r.docs).toBe((await sourceIds(oldZip)).length);
    expect(storedIds(file)).toEqual(await sourceIds(oldZip));
    await restarted.close();
    await store.close();
    await store.init();
  });

  it('a truncated file fails the run and leaves the live version untouched; so does a bad checksum and a big drop', async () => {
    const live = storedIds(file);
    const broken = join(dir.path, 'truncated.zip');
    copyFileSync(newZip, broken);
    truncateSync(broken, Math.floor(statSync(broken).size / 2));
    await expect(runner.run(event(broken))).rejects.toThrow();
    expect(existsSync(`${file}.import`)).toBe(false);
    expect(storedIds(file)).toEqual(live);

    const sum = `sha256:${createHash('sha256').update(readFileSync(newZip)).digest('hex')}`;
    await expect(runner.run(event(newZip, { checksum: sum.replace(/.$/, sum.endsWith('0') ? '1' : '0') }))).rejects.toMatchObject({ permanent: true, message: expect.stringMatching(/^checksum: /) });

    const dry = await runner.run(event(newZip), { dryRun: true });
    expect(dry).toMatchObject({ version: 'dry-run', docs: (await sourceIds(newZip)).length });
    expect(storedIds(file)).toEqual(live);

    const small = writeRuianFixture(dir.path, { rows: 100, streetPrefix: 'Mala', admBase: 92_000_000 });
    await expect(runner.run(event(small))).rejects.toThrow(/fewer than the live version/);
    expect(storedIds(file)).toEqual(live);
    const forced = await runner.run(event(small), { force: true });
    expect(forced.docs).toBe((await sourceIds(small)).length);
  });

  it('passes its canary searches on real-looking rows (diacritics, Praha districts, evidence numbers)', async () => {
    const own = new SqlitePlacesStore(join(dir.path, 'fixtures', 'places.sqlite'));
    await own.init();
    const folder = join(projectRoot(), 'libs/places/src/fixtures/ruian/CSV');
    const r = await new DatasetRunner({ places: own, config: {} }).run(event(folder));
    expect(r.docs).toBe((await sourceIds(folder)).length);
    expect(r.skipped).toBeGreaterThan(0);
    await own.close();
  });

  it('downloads an http(s) dataset (checked against its checksum) and refuses a wrong one permanently, the live version unchanged', async () => {
    const server = new DatasetTestServer();
    await server.start();
    try {
      const body = readFileSync(oldZip);
      server.paths.set('/ruian.zip', { kind: 'file', body });
      const sum = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      const own = new SqlitePlacesStore(join(dir.path, 'http', 'places.sqlite'));
      await own.init();
      const r = new DatasetRunner({ places: own, config: {}, downloadDir: dir.path });
      const progress: number[] = [];
      const ok = await r.run(event(server.url('/ruian.zip'), { checksum: sum }), { onProgress: (p) => progress.push(p.bytes ?? 0) });
      expect(ok.docs).toBe((await sourceIds(oldZip)).length);
      // The download reached the whole body (then the reading counts the unpacked files).
      expect(progress).toContain(body.length);
      const wrong = `sha256:${'0'.repeat(64)}`;
      await expect(r.run(event(server.url('/ruian.zip'), { checksum: wrong }))).rejects.toMatchObject({ permanent: true });
      await expect(r.run(event(server.url('/missing.zip')))).rejects.toMatchObject({ permanent: true });
      expect(await own.liveVersion('CZ')).toEqual({ version: ok.version, docs: ok.docs });
      await own.close();
    } finally {
      await server.stop();
    }
  });

  it('merges RPO search and detail answers given as one folder, like the business CLI', async () => {
    const biz = new SqliteBusinessStore(join(dir.path, 'business-rpo.sqlite'));
    await biz.init();
    try {
      // The real search answer and the real detail answer of one of its entities (fixture README).
      const folder = join(dir.path, 'rpo-answers');
      mkdirSync(folder, { recursive: true });
      for (const f of ['rpo-search.json', 'rpo-entity-1003617.json']) copyFileSync(join(projectRoot(), 'libs/business/src/fixtures/sk', f), join(folder, f));
      const r = await new DatasetRunner({ places: store, business: biz, config: {} }).run(event(folder, { country: 'SK', kind: 'business', format: 'sk-rpo-json' }));
      expect(r.docs).toBe(2);
      expect(await biz.get('sk_31322832')).toMatchObject({ name: 'SLOVNAFT, a.s.', legal_form: 'Akciová spoločnosť', legal_form_code: '121', segment: 'Priemyselná výroba', street: 'Vlčie hrdlo' });
      expect(await biz.get('sk_50112233')).toMatchObject({ legal_form_code: '', segment: '' });
      expect(r.notes).toEqual([expect.stringMatching(/^1 of 2 RPO entities came without their detail answer/)]);
      // The search answer alone: the same entity without legal form and sector (what the pipeline gave before).
      const alone = await new DatasetRunner({ places: store, business: biz, config: {} }).run(event(join(folder, 'rpo-search.json'), { country: 'SK', kind: 'business', format: 'sk-rpo-json' }), { force: true });
      expect(alone.docs).toBe(2);
      expect(await biz.get('sk_31322832')).toMatchObject({ legal_form_code: '', segment: '' });
    } finally {
      await biz.close();
    }
  });

  it('runs the business register through the same pipeline, keeping the other country', async () => {
    const biz = new SqliteBusinessStore(join(dir.path, 'business.sqlite'));
    await biz.init();
    const r = new DatasetRunner({ places: store, business: biz, config: {} });
    const rpo = join(projectRoot(), 'libs/business/src/fixtures/sk/rpo-entities.json');
    const res = join(projectRoot(), 'libs/business/src/fixtures/cz/res_data.csv');
    const sk = await r.run(event(rpo, { country: 'SK', kind: 'business', format: 'sk-rpo-json' }));
    const cz = await r.run(event(res, { country: 'CZ', kind: 'business', format: 'cz-res-csv' }));
    expect(sk.docs).toBeGreaterThan(0);
    expect(cz.docs).toBeGreaterThan(0);
    expect(await biz.count()).toBe(sk.docs + cz.docs);
    // A second CZ version replaces CZ only; SK is carried over.
    const again = await r.run(event(res, { country: 'CZ', kind: 'business', format: 'cz-res-csv' }));
    expect(again.previous).toEqual({ version: cz.version, docs: cz.docs });
    expect(await biz.count()).toBe(sk.docs + cz.docs);
    const bad = join(dir.path, 'bad.json');
    writeFileSync(bad, '{"results": [');
    await expect(r.run(event(bad, { country: 'SK', kind: 'business', format: 'sk-rpo-json' }))).rejects.toThrow();
    expect(await biz.count()).toBe(sk.docs + cz.docs);
    await biz.close();
  });
});
