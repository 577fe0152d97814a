import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MetricNames } from '@lookup/shared/metrics';
import { loadConfig } from '@lookup/shared/config';
import { post, tempDir } from '@lookup/shared/testing';
import { createStandaloneApp } from './standalone';

/** A DB-IP Lite record in the bundled MMDB: Zlín (49.224, 17.663). The sample has náměstí Míru in Zlín and in Šumperk. */
const ZLIN_IP = '212.111.1.1';
const SUMPERK = '49.965,16.971';
const KEY = 'via-ip-test-key';

type P = Record<string, unknown>;

async function standalone(dir: string, env: Record<string, unknown>): Promise<{ app: NestFastifyApplication; base: string }> {
  const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir, HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'error', SEED_API_KEY: KEY, DEMO_PAGE: false, ...env });
  const app = await createStandaloneApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  // The first search waits for the search threads to load, which a test run compiles from TypeScript: with two apps
  // starting at once on a busy CI machine, past the in-process transport's 5 s (a 504 once). Asked until it answers,
  // so what the tests compare is the bias, not the first load.
  for (const until = Date.now() + 60_000; ; ) {
    const r = await post(base, '/v1/places/query', `api_key=${KEY}&query=Zl%C3%ADn&country=CZ`);
    if (r.status === 200) break;
    if (Date.now() > until) throw new Error(`no search answered within 60 s: ${r.status} ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 500));
  }
  return { app, base };
}

const municipalities = (r: { status: number; body: unknown }) => {
  if (!Array.isArray(r.body)) throw new Error(`expected places, got ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body as P[]).map((p) => p['municipality']);
};

/**
 * around_latlng_via_ip through the gateway (standalone profile, real MMDB record): the address
 * comes from the socket unless the peer is a trusted proxy, then from the configured header.
 */
describe('around_latlng_via_ip over HTTP (standalone)', () => {
  const dirs = [tempDir(), tempDir()];
  let untrusted: { app: NestFastifyApplication; base: string };
  let trusted: { app: NestFastifyApplication; base: string };

  beforeAll(async () => {
    untrusted = await standalone(dirs[0].path, { TRUST_PROXY: '10.0.0.0/8' });
    trusted = await standalone(dirs[1].path, { TRUST_PROXY: '127.0.0.1', TRUSTED_PROXY_HEADER: 'x-real-ip' });
  }, 120000);

  afterAll(async () => {
    await untrusted?.app.close();
    await trusted?.app.close();
    dirs.forEach((d) => d.remove());
  });

  const ask = (base: string, extra: string, headers: Record<string, string> = {}) =>
    post<P[]>(base, '/v1/places/query', `api_key=${KEY}&query=n%C3%A1m%C4%9Bst%C3%AD%20M%C3%ADru&country=CZ&limit=20${extra}`, { headers });

  it('a trusted proxy header is located and biases towards the caller', async () => {
    // Biased to Šumperk explicitly, Šumperk comes first: the order is not Zlín by itself.
    const towardsSumperk = await ask(trusted.base, `&around_latlng=${SUMPERK}`);
    expect(municipalities(towardsSumperk)[0]).toBe('Šumperk');
    const located = await ask(trusted.base, '&around_latlng_via_ip=true', { 'x-real-ip': ZLIN_IP });
    expect(located.status).toBe(200);
    const names = municipalities(located);
    expect(names[0]).toBe('Zlín');
    expect(names.indexOf('Šumperk')).toBeGreaterThan(names.lastIndexOf('Zlín'));
  });

  it('the same header from a peer that is not a trusted proxy is ignored: loopback, no bias, no error', async () => {
    const plain = await ask(untrusted.base, '');
    const spoofed = await ask(untrusted.base, '&around_latlng_via_ip=true', { 'x-forwarded-for': ZLIN_IP, 'x-real-ip': ZLIN_IP });
    expect(spoofed.status).toBe(200);
    expect(spoofed.body).toEqual(plain.body);
  });

  it('a caller_ip sent by the caller is replaced by the gateway', async () => {
    const plain = await ask(untrusted.base, '');
    const forged = await ask(untrusted.base, `&around_latlng_via_ip=true&caller_ip=${ZLIN_IP}`);
    expect(forged.status).toBe(200);
    expect(forged.body).toEqual(plain.body);
  });

  it('an address given as the value is located whoever calls; a private one adds no bias', async () => {
    const byValue = await ask(untrusted.base, `&around_latlng_via_ip=${ZLIN_IP}`);
    expect(municipalities(byValue)[0]).toBe('Zlín');
    const plain = await ask(untrusted.base, '');
    expect((await ask(untrusted.base, '&around_latlng_via_ip=192.168.1.20')).body).toEqual(plain.body);
  });

  it('exposes engine latency per engine and operation on /metrics', async () => {
    await ask(untrusted.base, '');
    await post(untrusted.base, '/v1/business/query', `api_key=${KEY}&query=stav`);
    await post(untrusted.base, '/v1/places/reverse', `api_key=${KEY}&lat=49.224&lng=17.663`);
    const res = await fetch(`${untrusted.base}/metrics`);
    const text = await res.text();
    for (const op of ['places.candidates', 'places.nearby', 'business.byNamePrefix', 'business.byTokens']) {
      expect(text).toMatch(new RegExp(`${MetricNames.engineDuration}_count\\{engine="sqlite",operation="${op.replace('.', '\\.')}",outcome="ok"\\} [1-9]`));
    }
    expect(text).toContain(`# TYPE ${MetricNames.transportTimeouts} counter`);
  });
});
