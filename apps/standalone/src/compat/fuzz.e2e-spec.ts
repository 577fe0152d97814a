import { Agent, request } from 'node:http';
import { CompatApp, isCompatError, jsonOf, startCompatApp } from './compat-app.testing';
import { seededRandom } from '@lookup/shared/runtime';
import { FuzzRequest, fuzzRequest } from './fuzz-corpus.testing';

const KEY = 'fuzz-secret-key-93c1d7';
const SEED = 20261123;
const REQUESTS = Number(process.env.FUZZ_N ?? 3000);
const CONCURRENCY = 8;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

function send(port: number, agent: Agent, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) };
    const r = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent, timeout: 15000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error('no answer in 15 s')));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** What is wrong with one answer, or null. */
function verdict(req: FuzzRequest, a: Answer): string | null {
  if (a.body.includes(KEY)) return 'the answer echoes the API key';
  if (a.status >= 500) {
    // Outside providers are pointed at a closed loopback port: "unavailable" is their honest answer.
    const type = (jsonOf(a.body) as { error?: { type?: string } } | undefined)?.error?.type;
    if (!(req.outside && (type === 'service_unavailable' || type === 'timeout') && isCompatError(jsonOf(a.body)))) return `${a.status}: ${a.body.slice(0, 200)}`;
  }
  if (a.status >= 400 && a.contentType.includes('json') && !isCompatError(jsonOf(a.body))) return `non-compat error body: ${a.body.slice(0, 200)}`;
  if (a.status >= 400 && !a.contentType.includes('json')) return `error answered as ${a.contentType || 'no content type'}`;
  return null;
}

/**
 * Issue 14/16: a few thousand mutated requests over every route must give no 5xx, only
 * compat error bodies, and never the API key in an answer or a log line.
 */
describe('fuzzing every route', () => {
  let s: CompatApp;
  beforeAll(async () => {
    s = await startCompatApp(KEY, {
      // Every outside service on a closed loopback port: no network, fast failures.
      EMAIL_DNS_SERVERS: '127.0.0.1:9',
      EMAIL_DNS_TIMEOUT_MS: 200,
      EMAIL_SMTP_PROBE: false,
      EMAIL_CHECK_TIMEOUT_MS: 1000,
      TRANSLATOR_URL: 'http://127.0.0.1:9',
      TRANSLATOR_TIMEOUT_MS: 500,
      VIES_URL: 'http://127.0.0.1:9',
      VIES_RETRIES: 0,
      VIES_TIMEOUT_MS: 500,
      VIES_DEADLINE_MS: 800,
      IP_DNS_SERVERS: '127.0.0.1:9',
      IP_DNS_TIMEOUT_MS: 100,
      DEFAULT_MONTHLY_SEARCH_LIMIT: 1_000_000,
      DEFAULT_MONTHLY_QUERY_LIMIT: 1_000_000,
      // The corpus runs at hundreds of requests a second: the per-key rate limit would answer most of them.
      RATE_LIMIT_PER_SECOND: 0,
    });
  });
  afterAll(() => s?.close());

  it(`${REQUESTS} mutated requests (seed ${SEED}): no 5xx, compat errors only, no key echoed or logged`, async () => {
    const r = seededRandom(SEED);
    const corpus = Array.from({ length: REQUESTS }, () => fuzzRequest(r, KEY));
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < corpus.length) {
        const req = corpus[next++];
        const a = await send(s.port, agent, req).catch((e: Error) => ({ status: -1, contentType: '', body: e.message }));
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        const v = a.status === -1 ? `transport: ${a.body}` : verdict(req, a);
        if (v) failures.push(`${req.label}: ${v}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    // Both kinds of answer must be among them, or the corpus is not exercising anything.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 60);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(REQUESTS / 6);
    // The server's own account of the first failures comes along, to replay them.
    const serverErrors = failures.length ? s.logs.filter((l) => /Error/.test(l)).slice(0, 3) : [];
    expect({ failures: failures.slice(0, 20), serverErrors }).toEqual({ failures: [], serverErrors: [] });
    expect(s.logs.filter((l) => l.includes(KEY)).slice(0, 5)).toEqual([]);
  });
});
