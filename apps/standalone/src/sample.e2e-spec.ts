import { resolve } from 'node:path';
import { ensureBuilt, freePortRange, NodeAppProcess, tempDir } from '@lookup/shared/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

const ROOT = resolve(__dirname, '..', '..', '..');
const KEY = 'sample-e2e-key';
type P = Record<string, unknown>;

/**
 * The bundled sample as a new user meets it: the standalone app started the way `npm start`
 * runs it on an empty data dir, searched in every country (and for a business) through the
 * official Node client. One query per country and kind of area the sample claims to hold.
 */
describe('the bundled sample through swiftyper-node (standalone, first start)', () => {
  const data = tempDir('lookup-sample-e2e-');
  let app: NodeAppProcess;
  let port: number;
  let client: { places: Record<string, (p: P) => Promise<unknown>>; business: Record<string, (p: P) => Promise<unknown>> };

  beforeAll(async () => {
    ensureBuilt(ROOT, ['dist/apps/standalone/src/main.js']);
    port = await freePortRange(1);
    app = new NodeAppProcess(ROOT, 'dist/apps/standalone/src/main.js', { PATH: process.env['PATH'], HOST: '127.0.0.1', PORT: String(port), DATA_DIR: data.path, SEED_API_KEY: KEY, LOG_LEVEL: 'warn' }, port);
    await app.start(120000);
    client = new Swiftyper(KEY, { host: '127.0.0.1', port, protocol: 'http' });
    // Known defect (search area): the first place search starts the search threads, which takes
    // 5-6 s on this shared 2-core machine, over the 5 s transport timeout, so it answers 504.
    // Started here so the searches below test the sample, not the threads' cold start.
    for (let i = 0; i < 5; i++) if (await query('Zlín', 'CZ').then(() => true, () => false)) break;
  }, 180000);

  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  const query = async (query: string, country: string) => (await client.places.query({ query, country })) as P[];

  it('prints no WARN or ERROR while importing the sample', () => {
    expect(app.output.filter((l) => /\bWARN\b|\bERROR\b/.test(l))).toEqual([]);
  });

  it.each([
    ['CZ', 'Zámecká', { country: 'CZ', municipality: 'Zlín', object: 'address' }],
    ['SK', 'Hlavná 101 Žilina', { country: 'SK', street: 'Hlavná', municipality: 'Žilina', county: 'Žilina', region: 'Žilinský', postal_code: '010 01' }],
    ['SK', 'Štefánikova Michalovce', { country: 'SK', municipality: 'Michalovce', region: 'Košický' }],
    ['PL', 'Jana Pawła II', { country: 'PL', municipality: 'Warszawa' }],
    ['AT', 'Stephansplatz', { country: 'AT', municipality: 'Wien' }],
    ['CH', 'Via Nassa', { country: 'CH', municipality: 'Lugano' }],
    ['LI', 'Spiegelstrasse', { country: 'LI', municipality: 'Ruggell', region: 'Unterland' }],
  ])('finds a %s address (%s)', async (country, q, want) => {
    const found = await query(q, country);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject(want);
    expect(found[0]['latlng']).toEqual({ lat: expect.any(Number), lng: expect.any(Number) });
  });

  it('holds every Slovak region with a municipality, and a village without streets', async () => {
    const regions = (await client.places.regions({ country: 'SK' })) as P[];
    expect(regions.map((r) => r['name']).sort()).toEqual(['Banskobystrický', 'Bratislavský', 'Košický', 'Nitriansky', 'Prešovský', 'Trenčiansky', 'Trnavský', 'Žilinský']);
    const village = await query('Čerín', 'SK');
    expect(village.find((p) => p['object'] === 'address')).toMatchObject({ municipality: 'Čerín', street: null });
  });

  it('finds a postal code and a municipality with county and region', async () => {
    expect(((await client.places.postal({ query: '917', country: 'SK' })) as P[])[0]).toMatchObject({ postal_code: '917 01', municipality: 'Trnava' });
    expect(((await client.places.municipality({ query: 'Banská', country: 'SK' })) as P[])[0]).toMatchObject({ municipality: 'Banská Bystrica', county: 'Banská Bystrica', region: 'Banskobystrický' });
  });

  it('says on /health/ready that every layer it serves is the bundled sample (invented rows)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(res.status).toBe(200);
    const datasets = ((await res.json()) as { datasets: Record<string, Record<string, unknown>> }).datasets;
    expect(Object.keys(datasets).sort()).toEqual(['AT', 'CH', 'CZ', 'LI', 'PL', 'SK']);
    const sample = expect.objectContaining({ source: 'bundled sample (invented rows)', version: 'sample', sample: true, docs: expect.any(Number) });
    for (const cc of Object.keys(datasets)) expect(datasets[cc]).toEqual({ catalogue: sample, addresses: sample });
  });

  it('finds a business', async () => {
    const found = (await client.business.query({ query: 'Alza' })) as P[];
    expect(found[0]).toMatchObject({ business_id: 'cz_27082440', cin: '27082440' });
  });
});
