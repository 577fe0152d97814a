import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CountryCode } from '@lookup/contracts';
import { SqlitePlacesStore } from '@lookup/places';
import { SqliteBusinessStore } from '@lookup/business';
import { tempDir } from '@lookup/shared/testing';
import { DatasetUpdatedEvent } from '../datasets/dataset-event';
import { DatasetRunner } from './dataset-runner';
import { IMPORTERS } from './importers';
import { fileError } from './file-errors';
import { BulkIndexError } from '@lookup/shared/search';
import { DatasetTestServer } from '../download/dataset-server.testing';

const COUNTRY: Record<string, CountryCode> = {
  'ruian-csv': 'CZ', 'sk-register': 'SK', 'pl-prg-gml': 'PL', 'at-bev-csv': 'AT', 'ch-swisstopo-csv': 'CH', 'li-osm-pbf': 'LI',
  'cz-catalogue-csv': 'CZ', geonames: 'AT', 'cz-res-csv': 'CZ', 'sk-rpo-json': 'SK', 'cz-ares-json': 'CZ',
};

/**
 * A file that is not of the announced format (a text file, a web page saved instead of the zip)
 * fails at once and for good: the consumer dead-letters a permanent failure instead of trying
 * it three times a minute apart; the error names the file. The live data stays as it was.
 */
describe('dataset runner: a file not of its format', () => {
  const dir = tempDir('pipeline-wrong-file-');
  const notes = join(dir.path, 'notes.txt');
  writeFileSync(notes, 'This is not a dataset.\nJust two lines of text.\n');
  let places: SqlitePlacesStore;
  let business: SqliteBusinessStore;
  let runner: DatasetRunner;

  beforeAll(async () => {
    places = new SqlitePlacesStore(join(dir.path, 'places.sqlite'));
    business = new SqliteBusinessStore(join(dir.path, 'business.sqlite'));
    await places.init();
    await business.init();
    runner = new DatasetRunner({ places, business, config: {} });
  });
  afterAll(async () => {
    await places.close();
    await business.close();
    dir.remove();
  });

  it('covers every format', () => {
    expect(Object.keys(COUNTRY).sort()).toEqual(Object.keys(IMPORTERS).sort());
  });

  it.each(Object.keys(COUNTRY))('%s: refused permanently, the error naming the file, nothing live', async (format) => {
    const country = COUNTRY[format]!;
    const kind = IMPORTERS[format]!.target === 'business' ? 'business' : IMPORTERS[format]!.layer === 'catalogue' ? 'catalogue' : 'addresses';
    const event = Object.assign(new DatasetUpdatedEvent(), { country, kind, format, location: notes, publishedAt: '2026-11-01T00:00:00Z' });
    const err = await runner.run(event).then(
      (r) => new Error(`imported: ${r.docs} documents, version ${r.version}`),
      (e: Error) => e,
    );
    expect(err).toMatchObject({ permanent: true, message: expect.stringContaining(notes) });
    if (kind === 'business') expect(await business.liveVersion(country)).toBeNull();
    else expect(await places.liveVersion(country)).toBeNull();
  });

  it('says why a file gave no documents: the importer\'s first messages, in the real run and the dry run alike', async () => {
    const event = Object.assign(new DatasetUpdatedEvent(), { country: 'PL', kind: 'addresses', format: 'pl-prg-gml', location: notes, publishedAt: '2026-11-01T00:00:00Z' });
    const why = `verify: ${notes} gave no documents: is it a pl-prg-gml file? (${notes}: neither PRG GML (.gml, .xml) nor a TERC table`;
    await expect(runner.run(event)).rejects.toMatchObject({ message: expect.stringContaining(why) });
    // Before: the dry run exited 0 and said "its streets and areas were imported".
    await expect(runner.run(event, { dryRun: true })).rejects.toMatchObject({ permanent: true, message: expect.stringContaining(why) });
  });

  it('refuses postal codes of CZ or SK without what their catalogue is built from, naming the setting and the command', async () => {
    for (const [country, setting] of [['CZ', 'CZ_CATALOGUE_CSV'], ['SK', 'SK_REGISTER_BATCHES']] as const) {
      const event = Object.assign(new DatasetUpdatedEvent(), { country, kind: 'postal-codes', format: 'geonames', location: notes, publishedAt: '2026-11-01T00:00:00Z' });
      await expect(runner.run(event)).rejects.toMatchObject({ permanent: true, message: expect.stringContaining(setting) });
      await expect(runner.run(event)).rejects.toMatchObject({ message: expect.stringContaining(`npx lookup import catalogue ${country}`) });
    }
  });

  it('downloaded: permanent when the checksum said it is the file announced; without one the next try downloads it again', async () => {
    const server = new DatasetTestServer();
    await server.start();
    try {
      const body = readFileSync(notes);
      server.paths.set('/adresy.zip', { kind: 'file', body });
      const url = server.url('/adresy.zip');
      const event = (extra: Partial<DatasetUpdatedEvent>) => Object.assign(new DatasetUpdatedEvent(), { country: 'CZ', kind: 'addresses', format: 'ruian-csv', location: url, publishedAt: '2026-11-01T00:00:00Z', ...extra });
      const checked = await runner.run(event({ checksum: `sha256:${createHash('sha256').update(body).digest('hex')}` })).catch((e: Error) => e);
      expect(checked).toMatchObject({ permanent: true, message: expect.stringContaining(url) });
      const unchecked = await runner.run(event({})).catch((e: Error) => e);
      expect(unchecked).toBeInstanceOf(Error);
      expect((unchecked as Error).message).toContain(url);
      expect((unchecked as { permanent?: boolean }).permanent).toBeUndefined();
    } finally {
      await server.stop();
    }
  });

  it('leaves a passing trouble (the disk, the engine) to be retried', () => {
    const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    expect(fileError(eio, notes)).toBe(eio);
    const engine = Object.assign(new Error('ConnectionError'), { name: 'ConnectionError' });
    expect(fileError(engine, notes)).toBe(engine);
    // A change batch writes while it reads: a rejected bulk write or a busy state file is retried, not dead-lettered.
    const bulk = new BulkIndexError('bulk indexing into x failed: rejected execution');
    expect(fileError(bulk, notes)).toBe(bulk);
    const state = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    expect(fileError(state, notes)).toBe(state);
    expect(fileError(new Error('RUIAN CSV: no header line'), notes)).toMatchObject({ permanent: true, message: `${notes}: RUIAN CSV: no header line` });
  });
});
