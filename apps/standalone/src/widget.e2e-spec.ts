import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { BUSINESS_STORE, BusinessStore, refreshFromAres } from '@lookup/business';
import { chPlaceDocs, loadCatalogue, PLACES_STORE, PlacesStore, sampleSources } from '@lookup/places';
import { loadConfig, projectRoot } from '@lookup/shared/config';
import { acquirePortLock, post, startTlsProxy, tempDir, TlsProxy } from '@lookup/shared/testing';
import { fakeDns, FakeDns } from '@lookup/utils';
import { createStandaloneApp } from './standalone';
import { serveWidgetPage, WIDGET_BUNDLE, widgetPageHtml } from './widget-page.testing';

const CHROMIUM = '/usr/bin/chromium';
/** The widget's `endpoint`: a host name only; it always calls https://<endpoint>:443. */
const ENDPOINT = 'api.lookup.test';
const KEY = 'widget-e2e-key';
const ARTIFACTS = join(projectRoot(), 'var', 'test-artifacts', 'widget');
const REQUIRED = process.env['CI'] === 'true' || process.env['REQUIRE_SERVERS'] === '1';
const missing = [CHROMIUM, WIDGET_BUNDLE].filter((p) => !existsSync(p));
const describeBrowser = missing.length === 0 || REQUIRED ? describe : describe.skip;
if (missing.length && !REQUIRED) console.log(`skipped "browser widget": ${missing.join(', ')} not present (chromium: apt-get install -y chromium)`);

/** Text that must stay text: if the page ever parsed it, the image would fail to load and set the flag. */
const HOSTILE = '<img src=x onerror=window.__xss=1>';

type WidgetLog = { suggestions: Array<{ widget: string; count: number }>; errors: Array<{ widget: string; message: string }>; analyses: Array<Record<string, unknown>> };

/**
 * The official browser widget (`../shared/clients/swiftyper.js`, its built bundle, unchanged) on a
 * shop page in headless Chromium, against the standalone server with the bundled sample data.
 * The widget only calls https://<endpoint>:443, so a TLS reverse proxy on 127.0.0.1:443 (a
 * certificate made at test time) stands in front of the gateway, and Chromium resolves the
 * endpoint to loopback. The page comes from another loopback origin: every call is cross-origin.
 * Screenshots of each dropdown: var/test-artifacts/widget/.
 */
describeBrowser('browser widget (swiftyper.js bundle) in headless Chromium against the standalone server', () => {
  const data = tempDir('lookup-widget-data-');
  const profile = tempDir('lookup-widget-chromium-');
  let releaseLock: (() => void) | undefined;
  let dns: FakeDns | undefined;
  let app: NestFastifyApplication | undefined;
  let proxy: TlsProxy | undefined;
  let site: { origin: string; close(): Promise<void> } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const corsAllowed: Array<string | undefined> = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (missing.length) throw new Error(`the widget test is required here (CI/REQUIRE_SERVERS) but ${missing.join(', ')} is missing`);
    mkdirSync(ARTIFACTS, { recursive: true });
    releaseLock = await acquirePortLock(443);
    // No network here: an e-mail domain is looked up on a loopback DNS server that knows no names (NXDOMAIN).
    dns = await fakeDns({});
    const config = loadConfig({}, {
      PROFILE: 'standalone', DATA_DIR: data.path, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error', SEED_API_KEY: KEY,
      EMAIL_SMTP_PROBE: 'false', EMAIL_DNS_SERVERS: dns.address, EMAIL_DNS_TIMEOUT_MS: '2000',
    });
    app = await createStandaloneApp(config);
    await app.listen(0, '127.0.0.1');
    const gatewayPort = (app.getHttpServer().address() as { port: number }).port;
    await importHostileRecords(app, data.path);
    // The first search starts the search threads (seconds on a loaded machine): not what the dropdown tests measure.
    for (const path of ['/v1/places/query', '/v1/places/municipality', '/v1/business/query']) {
      const res = await post(`http://127.0.0.1:${gatewayPort}`, path, `query=Zl&country=CZ&api_key=${KEY}`);
      expect([path, res.status]).toEqual([path, 200]);
    }
    proxy = await startTlsProxy({ hostname: ENDPOINT, port: 443, target: `http://127.0.0.1:${gatewayPort}` });
    site = await serveWidgetPage(widgetPageHtml({ endpoint: ENDPOINT, apiKey: KEY }));

    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        `--host-resolver-rules=MAP ${ENDPOINT} 127.0.0.1`, '--ignore-certificate-errors',
      ],
      viewport: { width: 660, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('response', (r) => {
      if (new URL(r.url()).hostname === ENDPOINT && r.request().method() === 'POST') corsAllowed.push(r.headers()['access-control-allow-origin']);
    });
    expect((await page.goto(site.origin + '/'))?.status()).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await site?.close();
    await proxy?.close();
    await app?.close();
    await dns?.close();
    releaseLock?.();
    data.remove();
    profile.remove();
  }, 60_000);

  const log = () => page.evaluate(() => (globalThis as unknown as { widgetLog: WidgetLog }).widgetLog);
  const errorsOf = async (widget: string) => (await log()).errors.filter((e) => e.widget === widget);
  const items = (section: string): Locator => page.locator(`#${section} .swiftyper_list li.swiftyper_result`);
  // The widget's calls as the proxy received them (the bytes Chromium put on the wire).
  const calls = () => proxy!.seen.filter((s) => s.method === 'POST');
  const lastCall = (path: string) => {
    const c = calls().filter((s) => s.path === path).at(-1);
    return c && { ...c, body: new URLSearchParams(c.body) };
  };
  const shoot = (section: string, name: string) => page.locator(`#${section}`).screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  /** The dropdown's first item; on a timeout the failure says what the widget and the server said. */
  async function firstItem(section: string, widget: string): Promise<Locator> {
    try {
      await items(section).first().waitFor({ timeout: 15_000 });
    } catch {
      const sent = calls().slice(-3).map((c) => `${c.path} ${c.body}`);
      throw new Error(`no suggestions in #${section}; widget errors: ${JSON.stringify(await errorsOf(widget))}; last calls: ${sent.join(' | ')}`);
    }
    return items(section).first();
  }
  /**
   * The widget's last call to `path` once its query is `query`: on a loaded machine the
   * keystrokes come slower than the debounce, so calls for the text typed so far come first.
   */
  async function callFor(path: string, query: string): Promise<NonNullable<ReturnType<typeof lastCall>>> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const c = lastCall(path);
      if (c?.body.get('query') === query) return c;
      if (Date.now() > deadline) throw new Error(`no ${path} call with query ${JSON.stringify(query)}; last: ${c ? c.body.toString() : 'none'}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** Waits (15 s at most) until the section's first suggestion's text matches: intermediate suggestions may show first. */
  async function firstItemMatching(section: string, widget: string, text: RegExp | string): Promise<Locator> {
    const first = await firstItem(section, widget);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const shown = (await first.textContent()) ?? '';
      if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return first;
      if (Date.now() > deadline) return first; // the caller's expectation then says what was shown
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function type(selector: string, text: string): Promise<void> {
    await page.fill(selector, '');
    await page.locator(selector).pressSequentially(text, { delay: 30 });
  }

  it('the address form (street + postal code + municipality) suggests while typing with the other inputs empty; a pick fills all three', async () => {
    await type('#street', 'Tomáše Bati 1686');
    // The widget sends the empty inputs as empty strings; they must not refuse the search.
    const sent = await callFor('/v1/places/query', 'Tomáše Bati 1686');
    expect({ postal_code: sent.body.get('postal_code'), municipality: sent.body.get('municipality') }).toEqual({ postal_code: '', municipality: '' });
    await firstItemMatching('address-form', 'address', 'třída Tomáše Bati 1686, 760 01 Zlín');
    expect(await items('address-form').first().textContent()).toContain('třída Tomáše Bati 1686, 760 01 Zlín');
    await shoot('address-form', 'address-street');

    await items('address-form').first().click();
    expect({ street: await page.inputValue('#street'), municipality: await page.inputValue('#municipality'), postal: await page.inputValue('#postal') }).toEqual({
      street: 'třída Tomáše Bati 1686',
      municipality: 'Zlín',
      postal: '760 01',
    });

    // The postal-code input suggests too, refined by the municipality the pick filled in.
    await type('#postal', '760');
    await callFor('/v1/places/postal', '760');
    await firstItem('address-form', 'address');
    // The codes for "7" or "76" may show until the answer for "760" arrives.
    await items('address-form').filter({ hasText: '760 01' }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
    expect(lastCall('/v1/places/postal')!.body.get('municipality')).toBe('Zlín');
    const codes = await items('address-form').allTextContents();
    expect(codes.map((t) => t.trim())).toContain('760 01');
    await shoot('address-form', 'address-postal-code');
    await items('address-form').filter({ hasText: '760 01' }).first().click();
    expect(await page.inputValue('#postal')).toBe('760 01');
    expect(await errorsOf('address')).toEqual([]);
  });

  it('the municipality widget suggests municipalities with the typed part highlighted', async () => {
    await type('#town', 'Zlí');
    await callFor('/v1/places/municipality', 'Zlí');
    await firstItem('town-form', 'town');
    const zlin = items('town-form').filter({ hasText: /^\s*Zlín\s*$/ });
    // On a loaded machine the suggestions for "Z" or "Zl" (Zlín with a shorter highlight) show until the answer for "Zlí" arrives.
    await zlin.locator('em', { hasText: /^Zlí$/ }).first().waitFor({ timeout: 15_000 }).catch(() => undefined); // the expectations below then say what was shown
    expect(await zlin.count()).toBe(1);
    // The highlight arrives as markup and is rendered as an element, not as literal `<em>` text.
    expect(await zlin.locator('em').first().textContent()).toBe('Zlí');
    expect(await zlin.textContent()).not.toContain('<em>');
    await shoot('town-form', 'municipality');
    await zlin.click();
    expect(await page.inputValue('#town')).toBe('Zlín');
    expect(await errorsOf('town')).toEqual([]);
  });

  it('the business widget finds a company by name and by CIN and fills the billing form', async () => {
    await type('#company', 'škoda auto');
    const skoda = await firstItemMatching('business-form', 'business', /ŠKODA\s+AUTO\s+a\.s\./);
    expect(await skoda.textContent()).toMatch(/ŠKODA\s+AUTO\s+a\.s\.[\s\S]*00177041[\s\S]*tř\. Václava Klementa 869, 293 01 Mladá Boleslav/);
    expect(await skoda.locator('em').count()).toBeGreaterThan(0);
    await shoot('business-form', 'business-name');
    await skoda.click();
    expect({
      company: await page.inputValue('#company'),
      cin: await page.inputValue('#cin'),
      street: await page.inputValue('#bstreet'),
      postal: await page.inputValue('#bpostal'),
      municipality: await page.inputValue('#bmunicipality'),
    }).toEqual({ company: 'ŠKODA AUTO a.s.', cin: '00177041', street: 'tř. Václava Klementa 869', postal: '293 01', municipality: 'Mladá Boleslav' });

    await type('#cin', '2708');
    await callFor('/v1/business/identifier', '2708');
    const alza = await firstItemMatching('business-form', 'business', 'Jankovcova 1522/53, 170 00 Praha');
    expect(await alza.textContent()).toContain('Jankovcova 1522/53, 170 00 Praha');
    // The widget shows `highlight` in the name slot and the id beside it: the company's name, not the digits twice.
    expect(await alza.textContent()).toMatch(/Alza\.cz a\.s\.[\s\S]*27082440/);
    await shoot('business-form', 'business-cin');
    await alza.click();
    expect([await page.inputValue('#company'), await page.inputValue('#cin'), await page.inputValue('#bpostal')]).toEqual(['Alza.cz a.s.', '27082440', '170 00']);
    expect(await errorsOf('business')).toEqual([]);
  });

  it('the e-mail validator checks syntax in the page and asks the server only for well-formed addresses', async () => {
    const before = calls().filter((c) => c.path === '/v1/utils/email/validate').length;
    await type('#email', 'jan.novak@');
    await page.waitForFunction(() => (globalThis as unknown as { widgetLog: WidgetLog }).widgetLog.analyses.some((a) => a['email'] === 'jan.novak@' && a['syntax'] === false));
    expect(calls().filter((c) => c.path === '/v1/utils/email/validate').length).toBe(before);

    // mailinator.com is on the disposable list; offline its domain does not resolve (our loopback DNS says NXDOMAIN): invalid.
    await type('#email', 'jan.novak@mailinator.com');
    await page.waitForFunction(() => (globalThis as unknown as { widgetLog: WidgetLog }).widgetLog.analyses.some((a) => a['email'] === 'jan.novak@mailinator.com' && 'reachable' in a), undefined, { timeout: 15_000 });
    const verdict = (await log()).analyses.find((a) => a['email'] === 'jan.novak@mailinator.com' && 'reachable' in a);
    expect(verdict).toMatchObject({ email: 'jan.novak@mailinator.com', username: 'jan.novak', domain: 'mailinator.com', reachable: 'invalid', disposable: true, mxValid: false });
    expect(lastCall('/v1/utils/email/validate')!.body.get('email')).toBe('jan.novak@mailinator.com');
    await shoot('email-form', 'email');
  });

  it('HTML in the data stays text in the dropdown and in the filled inputs', async () => {
    await type('#chstreet', 'onerror');
    await firstItem('ch-form', 'ch');
    const hit = items('ch-form').first();
    // A shorter highlight (the answer to a prefix) may show until the answer for the whole word arrives.
    await hit.locator('em', { hasText: /^onerror$/ }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
    expect(await hit.textContent()).toContain(HOSTILE);
    expect(await hit.locator('img').count()).toBe(0);
    expect(await hit.locator('em').first().textContent()).toBe('onerror');
    await shoot('ch-form', 'html-in-data-places');
    await hit.click();
    expect(await page.inputValue('#chstreet')).toContain(HOSTILE);

    await type('#company', 'Kavárna');
    const cafe = items('business-form').filter({ hasText: 'Kavárna' }).first();
    await cafe.waitFor({ timeout: 15_000 });
    expect(await cafe.textContent()).toContain(`Kavárna ${HOSTILE}`);
    expect(await cafe.locator('img').count()).toBe(0);
    await shoot('business-form', 'html-in-data-business');
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('every call went cross-origin through the TLS endpoint and was allowed by CORS; the page had no script errors', async () => {
    expect(calls().length).toBeGreaterThan(5);
    expect(new Set(calls().map((c) => c.origin))).toEqual(new Set([site!.origin]));
    expect(corsAllowed.length).toBeGreaterThan(5);
    expect(new Set(corsAllowed)).toEqual(new Set([site!.origin]));
    expect(pageErrors).toEqual([]);
  });
});

/**
 * Records whose names carry HTML, through the official formats' importers into the running
 * server's stores: a Swiss address (swisstopo CSV, written here) and a company (an ARES answer).
 */
async function importHostileRecords(app: NestFastifyApplication, dir: string): Promise<void> {
  const csv = join(dir, 'hostile-ch.csv');
  writeFileSync(
    csv,
    'ADR_EGAID;STR_ESID;BDG_EGID;ADR_EDID;STN_LABEL;ADR_NUMBER;BDG_CATEGORY;BDG_NAME;ZIP_LABEL;COM_FOSNR;COM_NAME;COM_CANTON;ADR_STATUS;ADR_OFFICIAL;ADR_MODIFIED;ADR_EASTING;ADR_NORTHING\n' +
      `190009901;19009901;990009901;0;${HOSTILE}gasse;7;residential;;8001 Zürich;261;Zürich;ZH;real;true;12.03.2024;2683160.260;1247934.730\n`,
  );
  const { catalogue } = await loadCatalogue(sampleSources()['CH']);
  const docs = [];
  for await (const batch of chPlaceDocs({ sources: [csv], catalogue })) docs.push(...batch);
  expect(docs.some((d) => d.street === `${HOSTILE}gasse`)).toBe(true);
  await app.get<PlacesStore>(PLACES_STORE).upsert(docs);
  const refreshed = await refreshFromAres(app.get<BusinessStore>(BUSINESS_STORE), {
    ico: '99990001',
    obchodniJmeno: `Kavárna ${HOSTILE} s.r.o.`,
    sidlo: { kodStatu: 'CZ', nazevObce: 'Zlín', nazevUlice: 'třída Tomáše Bati', cisloDomovni: 1686, typCisloDomovni: 1, psc: 76001 },
    pravniForma: '112',
    datumVzniku: '2020-01-01',
  });
  expect(refreshed).toBe(1);
}
