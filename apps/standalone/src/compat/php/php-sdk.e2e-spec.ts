import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiKeyService } from '@lookup/gateway';
import { projectRoot } from '@lookup/shared/config';
import { ProjectsService } from '@lookup/intl';
import { tempDir } from '@lookup/shared/testing';
import { CompatApp, startCompatApp } from '../compat-app.testing';
import { PhpCall, phpMissing, PhpResult, prepareSdk, runPhp } from './php-sdk.testing';

const KEY = 'php-sdk-key-2f9a';
const missing = phpMissing();
// CI installs PHP (.ci/run) and sets REQUIRE_PHP=1: there, a missing PHP fails instead of skipping.
const required = process.env['REQUIRE_PHP'] === '1' || process.env['REQUIRE_SERVERS'] === '1';

if (missing && !required) {
  console.log(`skipped "the real PHP SDK": ${missing}`);
}

const describePhp = missing && !required ? describe.skip : describe;

/** The real PHP SDK (../shared/clients/swiftyper-php, used in place via a scratch copy) against a standalone gateway. */
describePhp('the real PHP SDK against the standalone gateway', () => {
  const dir = tempDir();
  let s: CompatApp;
  let autoload: string;
  let keys: { restricted: string; quota: string; project: string; rate: string };

  const call = (c: string, ...args: unknown[]): PhpCall => ({ call: c, args, key: KEY });
  const run = (...calls: PhpCall[]): Promise<PhpResult[]> => runPhp(autoload, s.base, calls, dir.path);
  const one = async (c: PhpCall): Promise<PhpResult> => (await run(c))[0];

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_PHP: ${missing}`);
    autoload = prepareSdk(dir.path);
    s = await startCompatApp(KEY, {
      // Outside services unreachable on purpose: they give the 5xx whose mapping is tested.
      TRANSLATOR_URL: 'http://127.0.0.1:9',
      TRANSLATOR_TIMEOUT_MS: 500,
      VIES_URL: 'http://127.0.0.1:9',
      VIES_RETRIES: 0,
      EMAIL_DNS_SERVERS: '127.0.0.1:9',
      EMAIL_DNS_TIMEOUT_MS: 200,
      EMAIL_SMTP_PROBE: false,
      IP_DNS_SERVERS: '127.0.0.1:9',
      IP_DNS_TIMEOUT_MS: 100,
    });
    const service = s.app.get(ApiKeyService);
    keys = {
      restricted: (await service.create({ name: 'php-restricted', allowedIps: ['203.0.113.0/24'] })).key,
      quota: (await service.create({ name: 'php-quota', monthlySearchLimit: 1 })).key,
      project: (await service.create({ name: 'php-intl', project: 'php-shop' })).key,
      // One request, then one token per 20 s: the second request in a row is over the rate.
      rate: (await service.create({ name: 'php-rate', ratePerSecond: 0.05, rateBurst: 1 })).key,
    };
    const projects = s.app.get(ProjectsService);
    await projects.create('php-shop');
    await projects.addMember('php-shop', 'dev@shop.example', 'translator');
  });
  afterAll(async () => {
    await s?.close();
    dir.remove();
  });

  it('place searches, catalogues and reverse geocoding return collections of places', async () => {
    const [query, street, municipality, postal, reverse, regions, counties, municipalities] = await run(
      call('Places::query', { query: 'třída Tomáše Bati 1686', country: 'CZ' }),
      call('Places::street', { query: 'třída Tomáše Bati' }),
      call('Places::municipality', { query: 'Otrokovice' }),
      call('Places::postal', { query: '760' }),
      call('Places::reverse', { lat: '49.2211', lng: '17.5299', distinct: '5000' }),
      call('Places::regions', { country: 'CZ' }),
      call('Places::counties', { country: 'CZ' }),
      call('Places::municipalities', { country: 'CZ' }),
    );
    for (const r of [query, street, municipality, postal, reverse, regions, counties, municipalities]) {
      expect(r).toMatchObject({ ok: true, status: 200, class: 'Swiftyper\\Collection' });
      expect(Array.isArray(r.value)).toBe(true);
    }
    for (const r of [query, street, municipality, postal, reverse]) expect((r.value as unknown[]).length).toBeGreaterThan(0);
    expect((regions.value as { place_id: string }[])[0].place_id).toMatch(/^cz_/);
  });

  it('Places::detail loads one place by id (object by kind), and an unknown id is an InvalidRequestException', async () => {
    const found = await one(call('Places::query', { query: 'třída Tomáše Bati 1686', country: 'CZ' }));
    const id = (found.value as { place_id: string }[])[0].place_id;
    const [detail, unknown] = await run(call('Places::detail', id), call('Places::detail', 'cz_m999999999'));
    expect(detail).toMatchObject({ ok: true, status: 200, value: { place_id: id } });
    expect(unknown).toMatchObject({ ok: false, exception: 'Swiftyper\\Exception\\InvalidRequestException', status: 404 });
  });

  it('Business::query, ::identifier and ::detail (which posts business_id to /identifier)', async () => {
    const [query, identifier, detail, unknown] = await run(
      call('Business::query', { query: 'škoda auto' }),
      call('Business::identifier', { query: '00177041' }),
      call('Business::detail', 'cz_00177041'),
      call('Business::detail', 'cz_99999999'),
    );
    expect(query).toMatchObject({ ok: true, status: 200 });
    expect((query.value as { cin: string }[]).map((b) => b.cin)).toContain('00177041');
    expect((identifier.value as { business_id: string }[])[0]).toMatchObject({ business_id: 'cz_00177041' });
    expect(detail).toMatchObject({ ok: true, status: 200 });
    expect(detail.value as unknown[]).toEqual([expect.objectContaining({ business_id: 'cz_00177041', name: 'ŠKODA AUTO a.s.' })]);
    expect(unknown).toMatchObject({ ok: false, exception: 'Swiftyper\\Exception\\InvalidRequestException', status: 404 });
  });

  it('phrases and translations: upload, query, submit (a real fbt collection)', async () => {
    const native = readFileSync(join(projectRoot(), 'libs/intl/src/fixtures/shop.fbt-0.20.collection.json'), 'utf8');
    const inProject = (c: string, ...args: unknown[]): PhpCall => ({ call: c, args, key: keys.project });
    const [upload, phrases] = await run(inProject('Phrase::upload', { native_strings: native }), inProject('Phrase::query', { query: 'obchode' }));
    expect(upload).toMatchObject({ ok: true, status: 200, value: { inserted: 10 } });
    expect(phrases).toMatchObject({ ok: true, status: 200 });
    const found = phrases.value as { hash: string; text: string }[];
    expect(found.map((p) => p.text)).toEqual(['Vítejte v obchodě']);
    const hash = found[0].hash;
    const [submit, translations] = await run(
      inProject('Translation::translate', { translation: 'Vítejte v našem obchodě', hash, phash: hash, locale: 'cs_CZ', contributor: 'dev@shop.example' }),
      inProject('Translation::query', { query: 'obchodě' }),
    );
    expect(submit).toMatchObject({ ok: true, status: 200, value: { translation: 'Vítejte v našem obchodě' } });
    expect(translations).toMatchObject({ ok: true, status: 200 });
  });

  it('Phrase::upload with the collection as a PHP array (form fields) is refused naming native_strings, and nothing is stored altered', async () => {
    // http_build_query sends every value as text and drops nulls and empty lists: not the collection any more.
    const collection = JSON.parse(readFileSync(join(projectRoot(), 'libs/intl/src/fixtures/shop.fbt-1.0.collection.json'), 'utf8')) as { phrases: unknown[] };
    const inProject = (c: string, ...args: unknown[]): PhpCall => ({ call: c, args, key: keys.project });
    const [asFields, asPhrasesArray, after] = await run(
      inProject('Phrase::upload', { native_strings: collection }),
      inProject('Phrase::upload', { native_strings: collection.phrases.slice(0, 2) }),
      inProject('Phrase::query', { query: 'cart' }),
    );
    for (const r of [asFields, asPhrasesArray]) {
      expect([r.exception, r.code, r.param, r.status]).toEqual(['Swiftyper\\Exception\\InvalidParameterException', 'invalid_parameter', 'native_strings', 400]);
    }
    // Only the 0.20 collection the test above uploaded as JSON text holds cart phrases: none of them re-keyed.
    const cart = after.value as Array<{ source: { jsfbt: string } }>;
    expect(cart.length).toBeGreaterThan(0);
    for (const p of cart) expect(p.source.jsfbt).not.toMatch(/\[(\*|_1|0)\]/);
  });

  it('utilities: IP details and e-mail check answer; translator and VIES with their provider down are UnknownApiErrorException (5xx)', async () => {
    const [ip, email, translator, vies] = await run(
      call('IpUtil::info', '8.8.8.8'),
      call('EmailUtil::validate', 'anna@shop.example'),
      call('Translator::translate', 'hello', 'cs', 'en'),
      call('ViesUtil::checkVatNumber', { countryCode: 'CZ', vatNumber: '00177041' }),
    );
    expect(ip).toMatchObject({ ok: true, status: 200 });
    expect(email).toMatchObject({ ok: true, status: 200 });
    for (const r of [translator, vies]) {
      expect(r.ok).toBe(false);
      expect(r.exception).toBe('Swiftyper\\Exception\\UnknownApiErrorException');
      expect(r.status).toBeGreaterThanOrEqual(500);
    }
  });

  it('maps every client error type to its exception class', async () => {
    const results = await run(
      { call: 'Places::regions', args: [{ country: 'CZ' }], key: 'no-such-key' },
      { call: 'Places::regions', args: [{ country: 'CZ' }], key: ' ' },
      { call: 'Places::regions', args: [{ country: 'CZ' }], key: keys.restricted },
      call('Places::query', { limit: '5' }),
      call('Places::query', { query: 'Praha', limit: 'many' }),
      call('Places::query', { query: 'Praha', color: 'blue' }),
      { call: 'Places::query', args: [{ query: 'Praha' }], key: keys.quota },
      { call: 'Places::query', args: [{ query: 'Praha' }], key: keys.quota },
      { call: 'Places::regions', args: [{ country: 'CZ' }], key: keys.rate },
      { call: 'Places::regions', args: [{ country: 'CZ' }], key: keys.rate },
    );
    const seen = results.map((r) => [r.exception, r.code, r.param ?? null]);
    expect(seen).toEqual([
      ['Swiftyper\\Exception\\InvalidApiKeyException', 'invalid_api_key', 'api_key'],
      ['Swiftyper\\Exception\\MissingException', 'missing', null],
      ['Swiftyper\\Exception\\RestrictedException', 'restricted', null],
      ['Swiftyper\\Exception\\MissingParameterException', 'missing_parameter', 'query'],
      ['Swiftyper\\Exception\\InvalidParameterException', 'invalid_parameter', 'limit'],
      ['Swiftyper\\Exception\\UnexpectedParameterException', 'unexpected_parameter', 'color'],
      [undefined, undefined, null],
      ['Swiftyper\\Exception\\QuotaException', 'over_query_limit', null],
      [undefined, undefined, null],
      ['Swiftyper\\Exception\\RateLimitException', 'rate_limit', null],
    ]);
  });

  it('Translation::raw (the export) works; methods outside the interface answer a typed exception, not a crash', async () => {
    const [raw, phraseRaw, grid, fbt] = await run(
      { call: 'Translation::raw', args: [{ locale: 'cs_CZ' }], key: keys.project },
      call('Phrase::raw', {}),
      call('Translation::variationGrid', {}),
      call('Fbt::initialize', {}),
    );
    expect(raw).toMatchObject({ ok: true, status: 200, value: { 'fb-locale': 'cs_CZ' } });
    expect([phraseRaw, grid, fbt].map((r) => [r.exception, r.status])).toEqual([
      ['Swiftyper\\Exception\\InvalidRequestException', 404],
      ['Swiftyper\\Exception\\InvalidRequestException', 404],
      ['Swiftyper\\Exception\\InvalidRequestException', 404],
    ]);
  });

  it('Places::validate answers a Validation (verdict, status, the matched place); nothing to validate is a MissingParameterException', async () => {
    const [found, empty] = await run(call('Places::validate', { query: 'třída Tomáše Bati 1686, Zlín', country: 'CZ' }), call('Places::validate', {}));
    expect(found).toMatchObject({ ok: true, status: 200, class: 'Swiftyper\\Validation', value: { object: 'validation', verdict: 'exact', status: 'valid' } });
    expect((found.value as { place: { municipality: string; postal_code: string } }).place).toMatchObject({ municipality: 'Zlín', postal_code: '760 01' });
    expect(empty).toMatchObject({ ok: false, exception: 'Swiftyper\\Exception\\MissingParameterException', status: 400, param: 'query' });
  });

  it('the widget-style empty fields work through the SDK too', async () => {
    const r = await one(call('Places::query', { query: 'třída Tomáše Bati 1686', postal_code: '', municipality: '', limit: '', contextType: '', around_latlng: '' }));
    expect(r).toMatchObject({ ok: true, status: 200 });
  });
});
