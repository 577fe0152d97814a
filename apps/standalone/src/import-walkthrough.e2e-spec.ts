import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describeWithData, ensureBuilt, freePortRange, NodeAppProcess, sharedData, tempDir } from '@lookup/shared/testing';
import { readmeImportCommands, ruianSubset, withFiles } from '@lookup/indexer/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

const ROOT = resolve(__dirname, '..', '..', '..');
const KEY = 'import-walkthrough-key';
type P = Record<string, unknown>;
type Client = { places: Record<string, (p: P) => Promise<unknown>> };

const SK_DAVKY = sharedData('sk/davky.zip');
const SK_CHANGE = sharedData('sk/zmenovadavka5156536.xml');
const SK_GEONAMES = sharedData('geonames/SK.txt');
const CZ_ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const CZ_PSC = sharedData('cz/psc-list.csv');
const CZ_GEONAMES = sharedData('geonames/CZ.txt');

/** `npm run import -- <argv>` as the user types it, in its own process, into the server's data dir. */
async function npmImport(argv: string[], dataDir: string): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'import', '--', ...argv], {
    cwd: ROOT,
    env: { ...process.env, PROFILE: 'standalone', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    timeout: 600000,
    maxBuffer: 16 << 20,
  });
  return stdout;
}

/** The standalone app as `npm start` runs it, on the given data dir; started before any import. */
async function startServer(dataDir: string): Promise<{ app: NodeAppProcess; client: Client }> {
  ensureBuilt(ROOT, ['dist/apps/standalone/src/main.js', 'dist/apps/indexer/src/import.cli.js']);
  const port = await freePortRange(1);
  const app = new NodeAppProcess(ROOT, 'dist/apps/standalone/src/main.js', { PATH: process.env['PATH'], HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, SEED_API_KEY: KEY, LOG_LEVEL: 'warn' }, port);
  await app.start(120000);
  const client = new Swiftyper(KEY, { host: '127.0.0.1', port, protocol: 'http' }) as Client;
  // The first place search starts the search threads (seconds on a loaded machine); not what is tested.
  for (let i = 0; i < 10; i++) if (await client.places.regions({ country: 'SK' }).then(() => true, () => false)) break;
  return { app, client };
}

/**
 * The README's Slovak import commands, literally and in the README's order, run by `npm run
 * import` against the real Register adries files while a standalone server is already running
 * on the same data dir; then what a user sees through the official Node client, without a restart.
 */
describeWithData([SK_DAVKY, SK_CHANGE, SK_GEONAMES], 'README SK import walkthrough over HTTP (standalone server running)', () => {
  const data = tempDir('lookup-import-walk-sk-');
  let app: NodeAppProcess;
  let client: Client;
  const out: string[] = [];
  let afterOnce: P[] = [];
  let afterTwice: P[] = [];
  const files = { 'davky.zip': SK_DAVKY, 'SK.txt': SK_GEONAMES, 'zmenovadavka5156536.xml': SK_CHANGE };
  const query = async (q: string) => (await client.places.query({ query: q, country: 'SK' })) as P[];

  beforeAll(async () => {
    ({ app, client } = await startServer(data.path));
    // Before the import the server serves the bundled sample (8 regions, 8 counties).
    expect(((await client.places.counties({ country: 'SK' })) as P[]).length).toBeLessThan(79);
    const commands = readmeImportCommands('SK');
    expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses', 'address-changes']);
    for (const argv of commands) out.push(await npmImport(withFiles(argv, files), data.path));
    afterOnce = await query('Vychylovka 306');
    // The change batch again: nothing new to write.
    out.push(await npmImport(withFiles(commands.at(-1)!, files), data.path));
    afterTwice = await query('Vychylovka 306');
  }, 900000);

  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  it('the change batch writes documents once, nothing the second time', () => {
    const changes = out.join('\n').split('\n').filter((l) => l.startsWith('SK address-changes'));
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatch(/[1-9]\d* documents upserted/);
    expect(changes[1]).toMatch(/\(0 new\), 0 documents upserted, 0 deleted/);
  });

  it('serves 8 regions and 79 counties of the real register without a restart', async () => {
    expect(((await client.places.regions({ country: 'SK' })) as P[]).length).toBe(8);
    expect(((await client.places.counties({ country: 'SK' })) as P[]).length).toBe(79);
  });

  it('finds an address of the change batch with its county, region and position; twice = once', () => {
    expect(afterOnce[0]).toMatchObject({ object: 'address', municipality: 'Nová Bystrica', county: 'Čadca', region: 'Žilinský' });
    const { lat, lng } = afterOnce[0]!['latlng'] as { lat: number; lng: number };
    // Nová Bystrica lies at about 49.37 N, 19.03 E.
    expect(Math.abs(lat - 49.37)).toBeLessThan(0.2);
    expect(Math.abs(lng - 19.03)).toBeLessThan(0.3);
    expect(afterTwice).toEqual(afterOnce);
  });

  it('finds a street of the initial batches', async () => {
    const streets = (await client.places.street({ query: 'Hlavná Ivanka pri Dunaji', country: 'SK' })) as P[];
    // A street Place has no county or region (interface spec: place_id, highlight, street, municipality, object, country).
    expect(streets[0]).toMatchObject({ object: 'street', street: 'Hlavná', municipality: 'Ivanka pri Dunaji', country: 'SK' });
    // Its municipality, in the catalogue of the real register, with county and region.
    const town = (await client.places.municipality({ query: 'Ivanka pri Dunaji', country: 'SK' })) as P[];
    expect(town[0]).toMatchObject({ municipality: 'Ivanka pri Dunaji', county: 'Senec', region: 'Bratislavský' });
  });

  it('the status command and /health/ready name the same three live datasets: since when, from which file, how many documents', async () => {
    const status = await npmImport(['status'], data.path);
    const res = await fetch(`${app.url}/health/ready`);
    expect(res.status).toBe(200);
    const sk = ((await res.json()) as { datasets: Record<string, Record<string, { source: string; docs: number; layerDocs?: number; since: string; format: string }>> }).datasets['SK']!;
    expect(Object.keys(sk).sort()).toEqual(['address-changes', 'addresses', 'catalogue']);
    expect(sk['addresses']).toMatchObject({ format: 'sk-register', source: SK_DAVKY });
    expect(sk['address-changes']).toMatchObject({ format: 'sk-register-xml', source: SK_CHANGE });
    for (const [kind, d] of Object.entries(sk)) {
      expect(d.docs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(d.since)).toBeGreaterThan(Date.now() - 3600_000);
      expect(status).toContain(`SK ${kind.padEnd(15)} live since ${d.since}  ${d.format}`);
      // A layer's own documents, with the version's where it holds the other layer too.
      const counted = kind === 'address-changes' ? `${d.docs} documents changed` : d.layerDocs !== undefined ? `${d.layerDocs} documents \\(${d.docs} in the version\\)` : `${d.docs} documents`;
      expect(status).toMatch(new RegExp(`^SK ${kind}\\s+live since ${d.since}.*  ${counted}  from ${d.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
    // The addresses (the README imports them after the catalogue) carried the catalogue into their version.
    expect(sk['addresses']!.layerDocs).toBeGreaterThan(30000);
    expect(sk['addresses']!.docs).toBeGreaterThan(sk['addresses']!.layerDocs!);
  });
});

/**
 * The same for CZ on a subset of the real RUIAN zip (every 150th municipality file, cut at test
 * time, never committed): the README's catalogue and address commands, over HTTP.
 */
describeWithData([CZ_ZIP, CZ_PSC, CZ_GEONAMES], 'README CZ import walkthrough over HTTP (standalone server running)', () => {
  const data = tempDir('lookup-import-walk-cz-');
  let app: NodeAppProcess;
  let client: Client;
  let address: { municipality: string; street: string; number: string } | undefined;

  beforeAll(async () => {
    ({ app, client } = await startServer(join(data.path, 'data')));
    const subset = await ruianSubset(CZ_ZIP, data.path, 150);
    // One address of the subset, to look up as a user would (a street, a house number, the municipality).
    const first = readdirSync(subset.dir).sort()[0]!;
    const rows = new TextDecoder('windows-1250').decode(readFileSync(join(subset.dir, first))).trim().split('\n').slice(1).map((l) => l.split(';'));
    const row = rows.find((r) => r[10] && r[12]);
    if (row) address = { municipality: row[2]!, street: row[10]!, number: row[12]! };
    const files = { 'zv_cobce_psc.zip': CZ_PSC, 'CZ.txt': CZ_GEONAMES, '20231231_OB_ADR_csv.zip': subset.dir };
    const commands = readmeImportCommands('CZ').filter((a) => a[0] === 'catalogue' || a[0] === 'addresses');
    expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses']);
    for (const argv of commands) await npmImport(withFiles(argv, files), join(data.path, 'data'));
  }, 900000);

  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  it('serves 14 regions, 77 counties, Praha and its postal codes without a restart', async () => {
    expect(((await client.places.regions({ country: 'CZ' })) as P[]).length).toBe(14);
    expect(((await client.places.counties({ country: 'CZ' })) as P[]).length).toBe(77);
    const praha = (await client.places.municipality({ query: 'Praha', country: 'CZ' })) as P[];
    expect(praha[0]).toMatchObject({ object: 'municipality', municipality: 'Praha', region: 'Hlavní město Praha' });
    const postal = (await client.places.postal({ query: '110 00', country: 'CZ' })) as P[];
    expect(postal.map((p) => p['postal_code'])).toContain('110 00');
  });

  it('finds an address of the subset with its county, region and position', async () => {
    expect(address).toBeDefined();
    const found = (await client.places.query({ query: `${address!.street} ${address!.number} ${address!.municipality}`, country: 'CZ' })) as P[];
    expect(found[0]).toMatchObject({ object: 'address', municipality: address!.municipality, street: address!.street, county: expect.any(String), region: expect.any(String) });
    expect(found[0]!['latlng']).toEqual({ lat: expect.any(Number), lng: expect.any(Number) });
  });
});
