import { spawn } from 'node:child_process';
import { DataSource } from 'typeorm';
import { loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { fbtTextHash } from '../fbt/fbt-hash';
import { PhrasesService } from '../phrases/phrases.service';
import { ProjectsService } from '../projects/projects.service';
import { intlDataSourceOptions, intlSqlitePath } from './intl.store';

/**
 * Another process (the projects CLI) writing the SQLite file while the service works: the
 * service's transaction must wait for it, not fail with SQLITE_BUSY_SNAPSHOT.
 */
describe('intl SQLite store next to another writer process', () => {
  const dir = tempDir();
  let ds: DataSource;
  let path: string;

  beforeAll(async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path });
    path = intlSqlitePath(config);
    expect(path).toBe(`${dir.path}/intl.sqlite`);
    ds = await new DataSource(intlDataSourceOptions(config)).initialize();
    await new ProjectsService(ds).create('shop');
  });
  afterAll(async () => {
    await ds?.destroy();
    dir.remove();
  });

  it('waits for a write lock held by another process, then commits', async () => {
    // The child takes the write lock, says so, holds it 400 ms, then commits a member.
    const child = spawn(process.execPath, [
      '-e',
      `const db = new (require('better-sqlite3'))(${JSON.stringify(path)}, { timeout: 5000 });
       db.exec('BEGIN IMMEDIATE');
       db.prepare("INSERT INTO intl_members (project_id, email, role, created_at) VALUES (1, 'cli@shop.example', 'translator', '2026-01-01 00:00:00')").run();
       process.stdout.write('locked\\n');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
       db.exec('COMMIT');`,
    ], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the child never took the lock')), 10000);
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && (clearTimeout(timer), resolve()));
    });
    const phrases = new PhrasesService(ds, new ProjectsService(ds));
    const native = JSON.stringify([{ hashToText: { [fbtTextHash('Hi', 'hello')]: 'Hi' }, desc: 'hello', project: 'shop', type: 'text', jsfbt: 'Hi' }]);
    const t0 = Date.now();
    expect(await phrases.upload({ project: 'shop', native_strings: native })).toEqual({ inserted: 1 });
    expect(await exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await new ProjectsService(ds).list())[0].members.map((m) => m.email)).toEqual(['cli@shop.example']);
  });
});
