import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { PlacesServiceModule } from '../places-service.module';
import { createDatasetStatus, FileDatasetStatus, OpenSearchDatasetStatus } from './dataset-status';

const live = (docs: number, source: string) => ({ format: 'ruian-csv', source, since: new Date().toISOString(), version: `v${docs}`, docs });

describe('dataset status file (standalone)', () => {
  const dir = tempDir('dataset-status-');
  afterAll(() => dir.remove());

  it('records per country and kind, replaces a kind, reads back what was written', async () => {
    const s = createDatasetStatus(loadConfig({}, { DATA_DIR: dir.path }));
    expect(s).toBeInstanceOf(FileDatasetStatus);
    expect(await s.read()).toEqual({});
    const a = live(10, '/data/a.zip');
    const b = live(20, '/data/b.zip');
    const c = live(30, '/data/psc-list.csv');
    await s.record('CZ', 'addresses', a);
    await s.record('CZ', 'catalogue', c);
    await s.record('CZ', 'addresses', b);
    expect(await s.read()).toEqual({ CZ: { addresses: b, catalogue: c } });
    // An official import removes the bundled sample's entries: a kind, then the country with its last one.
    await s.record('PL', 'addresses', a);
    await s.remove('CZ', 'catalogue');
    await s.remove('CZ', 'postal-codes');
    expect(await s.read()).toEqual({ CZ: { addresses: b }, PL: { addresses: a } });
    await s.remove('PL', 'addresses');
    expect(await s.read()).toEqual({ CZ: { addresses: b } });
  });
});

describeWith(['opensearch'], 'dataset status in OpenSearch (distributed) and on the places app /health/ready', () => {
  const prefix = uniqueName('dstatus');
  const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
  const config = loadConfig({}, { PROFILE: 'distributed', OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix });
  let app: NestFastifyApplication | undefined;

  afterAll(async () => {
    await app?.close();
    await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
    await client.close();
  });

  it('reads nothing before the first record, then what the indexer recorded (another client: another process)', async () => {
    const writer = createDatasetStatus(config);
    expect(writer).toBeInstanceOf(OpenSearchDatasetStatus);
    expect(await writer.read()).toEqual({});
    const a = live(2727925, '/var/lookup/downloads/20231231_OB_ADR_csv.zip');
    const sk = live(41000, 'https://example.invalid/davky.zip');
    await writer.record('CZ', 'addresses', a);
    await writer.record('SK', 'addresses', sk);
    await writer.record('CZ', 'addresses', { ...a, version: 'v2' });
    await writer.close();
    const reader = new OpenSearchDatasetStatus(client, prefix);
    expect(await reader.read()).toEqual({ CZ: { addresses: { ...a, version: 'v2' } }, SK: { addresses: sk } });
    // Green on a single node: no replica it could never assign.
    const health = await client.cluster.health({ index: `${prefix}-datasets` } as never);
    expect((health.body as { status: string }).status).toBe('green');
  });

  it('an index made by an earlier version (the default replica) gets the setting at the next write', async () => {
    const old = `${uniqueName('dstatus-old')}`;
    await client.indices.create({ index: `${old}-datasets`, body: { settings: { index: { number_of_replicas: 1 } } } } as never);
    const writer = new OpenSearchDatasetStatus(client, old);
    const li = live(26, '/data/LI.txt');
    await writer.record('LI', 'catalogue', li);
    const settings = await client.indices.getSettings({ index: `${old}-datasets` } as never);
    expect((settings.body as Record<string, { settings: { index: { auto_expand_replicas: string } } }>)[`${old}-datasets`]!.settings.index.auto_expand_replicas).toBe('0-1');
    expect(await writer.read()).toEqual({ LI: { catalogue: li } });
    await writer.record('LI', 'addresses', li);
    await writer.remove('LI', 'catalogue');
    await writer.remove('LI', 'postal-codes');
    expect(await writer.read()).toEqual({ LI: { addresses: li } });
    await client.indices.delete({ index: `${old}-datasets` });
  });

  it('the places app shows the live datasets on /health/ready', async () => {
    app = await NestFactory.create<NestFastifyApplication>(PlacesServiceModule.forRoot({ config }), new FastifyAdapter(), { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status: string; datasets: Record<string, Record<string, { docs: number; source: string; since: string }>> };
    expect(body.status).toBe('ok');
    expect(body.datasets['CZ']!['addresses']).toMatchObject({ docs: 2727925, source: '/var/lookup/downloads/20231231_OB_ADR_csv.zip', version: 'v2', since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(Object.keys(body.datasets).sort()).toEqual(['CZ', 'SK']);
  });
});
