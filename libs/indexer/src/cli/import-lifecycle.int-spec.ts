import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '@lookup/shared/config';
import { acquireImportLock, ImportLockedError, importLockPath, SqlitePlacesStore } from '@lookup/places';
import { tempDir } from '@lookup/shared/testing';
import { runImport } from '../import.command';
import { runDatasetImport } from './dataset-import';
import { readStatus, statusPath } from './dataset-status';

const FIXTURES = resolve(__dirname, '../../../places/src/fixtures');
const RUIAN = join(FIXTURES, 'ruian/CSV');
const PSC = join(FIXTURES, 'cz/psc-list.csv');

function capture() {
  const out: string[] = [];
  return { out, deps: { out: (l: string) => void out.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 0 } };
}

/** A process that is certainly dead: one that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('import lifecycle in one data directory (standalone)', () => {
  const dir = tempDir();
  const config = loadConfig({}, { DATA_DIR: dir.path });
  /** The standalone places file (createPlacesStore's). */
  const PLACES = join(dir.path, 'places.sqlite');
  afterAll(() => dir.remove());

  it('a running server sees a finished import at its next read, without a restart, and never the build in progress', async () => {
    const server = new SqlitePlacesStore(PLACES);
    await server.init();
    try {
      expect(await server.count('CZ', 'municipality')).toBe(0);
      const before = server.source.generation;
      // The CLI in this test process: its own store on the same file, as a second process would have.
      await runImport(['catalogue', 'CZ', '--psc-list', PSC], config, () => undefined);
      await new Promise((r) => setTimeout(r, 300));
      const municipalities = await server.count('CZ', 'municipality');
      expect(municipalities).toBeGreaterThan(0);
      // The search threads reopen on a new generation.
      expect(server.source.generation).toBeGreaterThan(before);
      // While the import runs (each progress line), the server still reads the old version: no address yet.
      const during: Array<Promise<number>> = [];
      const out: string[] = [];
      const deps = { out: (l: string) => void out.push(l), progressLogEveryMs: 0, progress: { isTTY: false, write: () => during.push(server.count('CZ', 'address')) } };
      await runDatasetImport(['addresses', 'CZ', RUIAN], config, deps);
      // The last line is the final one, drawn after the switch.
      expect(during.length).toBeGreaterThan(1);
      expect(new Set(await Promise.all(during.slice(0, -1)))).toEqual(new Set([0]));
      await new Promise((r) => setTimeout(r, 300));
      expect(await server.count('CZ', 'address')).toBeGreaterThan(5);
      // The catalogue's municipalities stay (plus any the addresses name that it lacks).
      expect(await server.count('CZ', 'municipality')).toBeGreaterThanOrEqual(municipalities);
    } finally {
      await server.close();
    }
  });

  it('a second import while one runs is refused with the holder named; nothing is written', async () => {
    const lock = acquireImportLock(importLockPath(PLACES), 'addresses CZ big.zip');
    try {
      const c = capture();
      const err = await runDatasetImport(['addresses', 'CZ', RUIAN], config, c.deps).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportLockedError);
      expect((err as Error).message).toMatch(new RegExp(`^another import is running into this data directory \\(pid ${process.pid}, since .*: addresses CZ big\\.zip\\)`));
      await expect(runImport(['catalogue', 'CZ', '--psc-list', PSC], config, () => undefined)).rejects.toBeInstanceOf(ImportLockedError);
      expect(existsSync(`${PLACES}.import`)).toBe(false);
    } finally {
      lock.release();
    }
    expect(existsSync(importLockPath(PLACES))).toBe(false);
  });

  it("a killed import's lock is taken over, and its half-built file removed at the next start", async () => {
    const lockFile = importLockPath(PLACES);
    writeFileSync(lockFile, JSON.stringify({ pid: await deadPid(), startedAt: '2026-01-01T00:00:00Z', command: 'addresses CZ killed.zip' }));
    writeFileSync(`${PLACES}.import`, 'half a version');
    // The next start of a server (a live store) cleans up: the lock's process is gone.
    const server = new SqlitePlacesStore(PLACES);
    await server.init();
    await server.close();
    expect(existsSync(`${PLACES}.import`)).toBe(false);
    // The next import takes the stale lock over and runs.
    const c = capture();
    await runDatasetImport(['addresses', 'CZ', RUIAN], config, c.deps);
    expect(c.out[0]).toMatch(/live in sqlite/);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a half-built file is left alone while the import that builds it is alive', async () => {
    const lock = acquireImportLock(importLockPath(PLACES), 'addresses CZ running.zip');
    writeFileSync(`${PLACES}.import`, 'being built');
    try {
      const server = new SqlitePlacesStore(PLACES);
      await server.init();
      await server.close();
      expect(existsSync(`${PLACES}.import`)).toBe(true);
    } finally {
      lock.release();
    }
  });

  it('status: per country, which datasets are live, since when, from which file, with how many documents', async () => {
    const s = readStatus(statusPath(config));
    expect(s['CZ']!['catalogue']).toMatchObject({ format: 'catalogue', source: PSC, version: expect.any(String), docs: expect.any(Number) });
    expect(s['CZ']!['addresses']).toMatchObject({ format: 'ruian-csv', source: RUIAN, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const c = capture();
    await runDatasetImport(['status'], config, c.deps);
    // The catalogue went first, then the addresses' version carried it: each layer counts its own documents.
    const a = s['CZ']!['addresses']!;
    const cat = s['CZ']!['catalogue']!;
    expect(a.layerDocs).toBeLessThan(a.docs);
    expect(c.out).toEqual([
      `CZ addresses       live since ${a.since}  ruian-csv  version ${a.version}  ${a.layerDocs} documents (${a.docs} in the version)  from ${RUIAN}`,
      `CZ catalogue       live since ${cat.since}  catalogue  version ${cat.version}, carried into ${a.version}  ${cat.docs} documents  from ${PSC}`,
    ]);
  });
});

describe('import progress on a real-format source', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('is monotonic, ends at 1, and its ETA comes from the bytes of the source read', async () => {
    const config = loadConfig({}, { DATA_DIR: dir.path });
    const lines: string[] = [];
    const deps = { out: () => undefined, progressLogEveryMs: 0, progress: { isTTY: false, write: (s: string) => lines.push(s) } };
    await runDatasetImport(['addresses', 'CZ', RUIAN], config, deps);
    // The progress lines (the steps after the writing are lines of their own, event import.step).
    const snaps = lines.map((l) => JSON.parse(l) as { event: string; fraction: number | null; bytes: number | null; totalBytes: number | null; etaSeconds: number | null }).filter((s) => s.event === 'import.progress');
    const fractions = snaps.map((s) => s.fraction);
    expect(fractions.every((f) => f !== null)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a! - b!));
    expect(fractions.at(-1)).toBe(1);
    expect(snaps.at(-1)!.etaSeconds).toBe(0);
    // The total is the address files' size (uncompressed), and the fraction is bytes / total.
    const { readdirSync, statSync } = await import('node:fs');
    const total = readdirSync(RUIAN).filter((f) => /_ADR\.csv$/i.test(f)).reduce((n, f) => n + statSync(join(RUIAN, f)).size, 0);
    for (const s of snaps) expect(s).toMatchObject({ totalBytes: total, fraction: s.bytes! / total });
  });
});
