import { DomainError, parseRequest, VatCheckRequest } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { ViesClient } from './vies.client';
import { ViesService } from './vies.service';
import { FakeVies, fakeVies } from './fake-vies.testing';

const TRANSIENT = ['MS_UNAVAILABLE', 'MS_MAX_CONCURRENT_REQ', 'MS_MAX_CONCURRENT_REQ_TIME', 'GLOBAL_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ_TIME', 'TIMEOUT', 'SERVICE_UNAVAILABLE'];

function service(url: string, over: Record<string, unknown> = {}): ViesService {
  const config = loadConfig({}, { VIES_URL: url, VIES_TIMEOUT_MS: 3000, VIES_DEADLINE_MS: 15000, VIES_RETRIES: 3, VIES_RETRY_BASE_MS: 10, ...over });
  const client = new ViesClient({ baseUrl: config.VIES_URL, timeoutMs: config.VIES_TIMEOUT_MS, deadlineMs: config.VIES_DEADLINE_MS, retries: config.VIES_RETRIES, retryBaseMs: config.VIES_RETRY_BASE_MS });
  return new ViesService(client, config);
}

const req = (p: Record<string, unknown>) => parseRequest(VatCheckRequest, p);

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('EU VAT check against a loopback VIES REST server', () => {
  let vies: FakeVies;
  beforeAll(async () => {
    vies = await fakeVies();
  });
  afterAll(() => vies.close());
  beforeEach(() => {
    vies.seen.length = 0;
    vies.failures.length = 0;
    vies.always = undefined;
  });

  it('answers a valid number with exactly the spec fields, sending VIES the compact number', async () => {
    const r = await service(vies.url).check(req({ countryCode: 'cz', vatNumber: 'CZ 251 23 891' }));
    expect(vies.seen).toEqual([{ countryCode: 'CZ', vatNumber: '25123891' }]);
    expect(Object.keys(r).sort()).toEqual(
      ['address', 'countryCode', 'name', 'object', 'requestDate', 'requestIdentifier', 'traderCity', 'traderCityMatch', 'traderCompanyType', 'traderCompanyTypeMatch', 'traderName', 'traderNameMatch', 'traderPostalCode', 'traderPostalCodeMatch', 'traderStreet', 'traderStreetMatch', 'valid', 'vatNumber'].sort(),
    );
    expect(r).toMatchObject({ countryCode: 'CZ', vatNumber: '25123891', valid: true, name: 'ABC s.r.o.', object: 'vies', requestIdentifier: '', traderName: '---', traderNameMatch: 'NOT_PROCESSED' });
    expect(r.address).toContain('\n');
    expect(new Date(r.requestDate).toISOString()).toBe(r.requestDate);
  });

  it('answers valid: false for a well-formed number VIES does not know', async () => {
    const r = await service(vies.url).check(req({ countryCode: 'PL', vatNumber: '8567346215' }));
    expect([r.valid, r.name, r.address]).toEqual([false, '---', '---']);
  });

  it('passes requester and trader fields and returns the consultation number and match values', async () => {
    const r = await service(vies.url).check(
      req({ countryCode: 'CZ', vatNumber: '25123891', requesterMemberStateCode: 'SK', requesterNumber: 'SK2022749619', traderName: 'ABC s.r.o.', traderCity: 'Brno' }),
    );
    expect(vies.seen[0]).toEqual({ countryCode: 'CZ', vatNumber: '25123891', requesterMemberStateCode: 'SK', requesterNumber: '2022749619', traderName: 'ABC s.r.o.', traderCity: 'Brno' });
    expect(r.requestIdentifier).toMatch(/^WAPI/);
    expect([r.traderName, r.traderNameMatch, r.traderCityMatch, r.traderStreetMatch]).toEqual(['ABC s.r.o.', 'VALID', 'INVALID', 'NOT_PROCESSED']);
  });

  it('refuses a bad format or check digit before asking VIES, naming vatNumber', async () => {
    for (const vatNumber of ['2512389', '25123890']) {
      const e = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber })));
      expect([e.type, e.param, e.status]).toEqual(['invalid_parameter', 'vatNumber', 400]);
    }
    const r = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891', requesterNumber: '2022749619' })));
    expect([r.type, r.param]).toEqual(['missing_parameter', 'requesterMemberStateCode']);
    expect(vies.seen).toHaveLength(0);
  });

  describe.each(TRANSIENT)('transient failure %s', (code) => {
    it.each(['userError', 'wrapper'] as const)('(as %s) is retried and the later answer used', async (kind) => {
      vies.failures.push({ kind, code }, { kind, code });
      const r = await service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891' }));
      expect(r.valid).toBe(true);
      expect(vies.seen).toHaveLength(3);
    });

    it('that persists is "could not be checked now" (503), never valid: false', async () => {
      vies.always = { kind: 'userError', code };
      const e = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891' })));
      expect([e.type, e.status]).toEqual(['service_unavailable', 503]);
      expect(e.message).toContain('could not be checked now');
      expect(e.message).toContain(code);
      expect(vies.seen).toHaveLength(4);
    });
  });

  it('INVALID_INPUT is the caller’s error, naming vatNumber, and not retried', async () => {
    vies.always = { kind: 'userError', code: 'INVALID_INPUT' };
    const e = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891' })));
    expect([e.type, e.param, e.status]).toEqual(['invalid_parameter', 'vatNumber', 400]);
    expect(vies.seen).toHaveLength(1);
  });

  it('INVALID_REQUESTER_INFO names requesterNumber', async () => {
    vies.failures.push({ kind: 'wrapper', code: 'INVALID_REQUESTER_INFO', status: 400 });
    const e = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891', requesterMemberStateCode: 'SK', requesterNumber: '2022749619' })));
    expect([e.type, e.param]).toEqual(['invalid_parameter', 'requesterNumber']);
  });

  it.each(['VAT_BLOCKED', 'IP_BLOCKED'])('%s is a 503 without retries', async (code) => {
    vies.always = { kind: 'wrapper', code, status: 403 };
    const e = await failure(service(vies.url).check(req({ countryCode: 'CZ', vatNumber: '25123891' })));
    expect([e.type, e.status]).toEqual(['service_unavailable', 503]);
    expect(e.message).toContain(code);
    expect(vies.seen).toHaveLength(1);
  });

  it('retries bare HTTP 5xx pages and slow answers, then gives up within the deadline', async () => {
    vies.failures.push({ kind: 'http', status: 502 }, { kind: 'hang', ms: 10000 });
    expect((await service(vies.url, { VIES_TIMEOUT_MS: 1000 }).check(req({ countryCode: 'CZ', vatNumber: '25123891' }))).valid).toBe(true);
    expect(vies.seen).toHaveLength(3);
    vies.always = { kind: 'hang', ms: 20000 };
    const t0 = Date.now();
    const e = await failure(service(vies.url, { VIES_DEADLINE_MS: 1500, VIES_TIMEOUT_MS: 400 }).check(req({ countryCode: 'CZ', vatNumber: '25123891' })));
    // Bounded by the deadline (plus scheduling slack on a busy machine), not by VIES's 20 s silence.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect([e.type, e.status]).toEqual(['service_unavailable', 503]);
    expect(e.message).toContain('TIMEOUT');
  });

  it('caches valid answers for the TTL, never invalid ones or failures', async () => {
    const svc = service(vies.url);
    const a = await svc.check(req({ countryCode: 'CZ', vatNumber: '25123891' }));
    const b = await svc.check(req({ countryCode: 'CZ', vatNumber: 'CZ25123891' }));
    expect(b).toEqual(a);
    expect(vies.seen).toHaveLength(1);
    await svc.check(req({ countryCode: 'PL', vatNumber: '8567346215' }));
    await svc.check(req({ countryCode: 'PL', vatNumber: '8567346215' }));
    expect(vies.seen).toHaveLength(3);
    const off = service(vies.url, { VIES_CACHE_TTL_SECONDS: 0 });
    await off.check(req({ countryCode: 'CZ', vatNumber: '25123891' }));
    await off.check(req({ countryCode: 'CZ', vatNumber: '25123891' }));
    expect(vies.seen).toHaveLength(5);
  });
});
