import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { ensureBuilt, freePortRange, NodeAppProcess, tempDir } from '@lookup/shared/testing';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts');
const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) console.log(`skipped "demo page": ${CHROMIUM} not installed (apt-get install -y chromium)`);

type Stats = Record<string, { sent: number; shown: number; dropped: number }>;

/**
 * The demo page at `/` of the standalone profile exactly as `npm start` runs it (a fresh data
 * dir, no key configured), driven in headless Chromium.
 */
describeBrowser('demo page in headless Chromium (standalone profile, out of the box)', () => {
  let server: NodeAppProcess;
  let context: BrowserContext;
  let page: Page;
  let base = '';
  const data = tempDir('lookup-demo-data-');
  const profile = tempDir('lookup-demo-chromium-');
  const requests: Array<{ path: string; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    ensureBuilt(ROOT, ['dist/apps/standalone/src/main.js']);
    const port = await freePortRange(1);
    base = `http://127.0.0.1:${port}`;
    server = new NodeAppProcess(
      ROOT,
      'dist/apps/standalone/src/main.js',
      // No SEED_API_KEY: the page must work with nothing configured. E-mail: no SMTP probe, quick DNS give-up (no network here).
      { PATH: process.env['PATH'], HOST: '127.0.0.1', PORT: String(port), DATA_DIR: data.path, LOG_LEVEL: 'warn', EMAIL_SMTP_PROBE: 'false', EMAIL_DNS_TIMEOUT_MS: '500' },
      port,
    );
    await server.start(90000);
    // The first place search starts the search threads (5-6 s on this shared 2-core machine, over
    // the 5 s transport timeout; reported to the search area): start them before the page types.
    const pageKey = /name="lookup-demo-key" content="([^"]+)"/.exec(await (await fetch(base + '/')).text())![1];
    const warm = { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ query: 'Zlín', country: 'CZ', api_key: pageKey }) };
    for (let i = 0; i < 5 && (await fetch(base + '/v1/places/query', warm)).status !== 200; i++);
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 900, height: 1000 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/v1/')) requests.push({ path: url.pathname, body: JSON.parse(r.postData() ?? '{}') });
    });
    const res = await page.goto(base + '/');
    expect(res?.status()).toBe(200);
  }, 240000);

  afterAll(async () => {
    await context?.close();
    await server?.stop(10000);
    data.remove();
    profile.remove();
  }, 60000);

  const stats = () => page.evaluate(() => (globalThis as unknown as { lookupDemo: { stats: Stats } }).lookupDemo.stats);
  const options = (id: string) => page.locator(`#${id}-list li[role=option]`);
  const waitText = (selector: string, text: string, timeout = 5000) => page.locator(selector).filter({ hasText: text }).waitFor({ timeout });
  const calls = (path: string) => requests.filter((r) => r.path === path);

  let key = '';

  it('serves the page with a key made for its own origin and a strict content security policy', async () => {
    const res = await fetch(base + '/');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    key = (await page.locator('meta[name="lookup-demo-key"]').getAttribute('content')) ?? '';
    expect(key).toMatch(/^lk_[0-9A-Za-z]{32}$/);
    expect(await page.locator('#key-row').isHidden()).toBe(true);
    // The same page again: the same key (one per origin and start), not a new one per visit.
    expect(await res.text()).toContain(`content="${key}"`);
    // From any other origin the key is refused.
    const foreign = await fetch(base + '/v1/places/regions', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' }, body: JSON.stringify({ country: 'CZ', api_key: key }) });
    expect(foreign.status).toBe(400);
    const own = await fetch(base + '/v1/places/regions', { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ country: 'CZ', api_key: key }) });
    expect(own.status).toBe(200);
  });

  it('answers HEAD / and unknown /demo/ names (__proto__, toString) without a server error', async () => {
    expect((await fetch(base + '/', { method: 'HEAD' })).status).toBe(200);
    for (const name of ['__proto__', 'toString', 'constructor', 'nothing.js']) {
      const res = await fetch(`${base}/demo/${name}`);
      expect([name, res.status, ((await res.json()) as { error: { type: string } }).error.type]).toEqual([name, 404, 'invalid_request']);
    }
    expect((await fetch(base + '/demo/leaflet/leaflet.js')).headers.get('content-type')).toContain('javascript');
    const metrics = await (await fetch(base + '/metrics')).text();
    expect(metrics.split('\n').filter((l) => l.startsWith('lookup_http_requests_total') && l.includes('status="500"'))).toEqual([]);
  });

  it('autocompletes an address with debounce, keyboard navigation and the refining fields filled', async () => {
    const before = calls('/v1/places/query').length;
    // When each keystroke reached the page: on a loaded machine they can come slower than typed.
    await page.evaluate(() => {
      const w = globalThis as unknown as { inputTimes: number[]; document: { querySelector(s: string): { addEventListener(e: string, f: () => void): void } } };
      w.inputTimes = [];
      w.document.querySelector('#address').addEventListener('input', () => w.inputTimes.push(performance.now()));
    });
    await page.locator('#address').pressSequentially('Zámecká', { delay: 25 });
    await options('address').first().waitFor();
    await page.waitForTimeout(300);
    // 7 keystrokes 25 ms apart, debounce 150 ms: one request, not seven. A pause of the
    // debounce's length between two keystrokes (a stalled machine) may send one more; only may:
    // after a stall Chromium runs the queued keystroke before the queued timer (input goes first),
    // so a long gap between two input events does not prove the timer ran between them.
    const times = await page.evaluate(() => (globalThis as unknown as { inputTimes: number[] }).inputTimes);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    const pauses = (ms: number) => gaps.filter((g) => g > ms).length;
    expect(times).toHaveLength(7);
    const sent = calls('/v1/places/query').length - before;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(1 + pauses(120));
    expect(await options('address').first().innerHTML()).toContain('<em>');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = await options('address').nth(1).getAttribute('id');
    expect(await page.locator('#address').getAttribute('aria-activedescendant')).toBe(second);
    expect(await options('address').nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await waitText('#address-result', 'place_id: cz_');
    expect(await page.locator('#address').getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#municipality').inputValue()).not.toBe('');
    expect(await page.locator('#postal_code').inputValue()).toMatch(/^\d{3}\s?\d{2}$/);
  });

  it('refines the address search with the municipality and postal code fields', async () => {
    await page.locator('#municipality').fill('Zlín');
    await page.locator('#postal_code').fill('76302');
    await page.locator('#address').fill('');
    await page.locator('#address').pressSequentially('Tečovská', { delay: 10 });
    await options('address').first().waitFor();
    const last = calls('/v1/places/query').at(-1)!;
    expect(last.body).toMatchObject({ query: 'Tečovská', municipality: 'Zlín', postal_code: '76302', country: 'CZ', api_key: key });
    await page.keyboard.press('Escape');
    expect(await page.locator('#address-list').isHidden()).toBe(true);
  });

  it('drops an answer that arrives after the answer to a later keystroke', async () => {
    // The first query's answer is held back until the second one is on screen.
    await page.route('**/v1/places/query', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { query?: string };
      if (body.query === 'Tečovská') await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.locator('#municipality').fill('');
    await page.locator('#postal_code').fill('');
    const dropped = (await stats())['address'].dropped;
    await page.locator('#address').fill('Tečovská');
    await page.waitForTimeout(400); // debounce passed: the slow request is out
    await page.locator('#address').fill('Zámecká');
    await page.waitForFunction((n) => (globalThis as unknown as { lookupDemo: { stats: Stats } }).lookupDemo.stats['address'].dropped === n, dropped + 1, { timeout: 5000 });
    await page.waitForTimeout(100);
    expect((await stats())['address'].dropped).toBe(dropped + 1);
    const shown = await page.locator('#address-list').textContent();
    expect(shown).toContain('Zámecká');
    expect(shown).not.toContain('Tečovská');
    await page.unroute('**/v1/places/query');
    await page.keyboard.press('Escape');
  });

  it('autocompletes a business and shows its identifiers', async () => {
    await page.locator('#business').pressSequentially('Alza', { delay: 20 });
    await options('business').first().waitFor();
    expect(await options('business').first().innerHTML()).toContain('<em>');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitText('#business-result', 'CIN: 27082440');
    expect(await page.locator('#business').inputValue()).toBe('Alza.cz a.s.');
  });

  it('checks an e-mail address and keeps a screenshot of the page', async () => {
    await page.locator('#email').fill('someone@mailinator.com');
    await page.keyboard.press('Enter');
    await waitText('#email-result', 'disposable: true', 15000);
    expect(calls('/v1/utils/email/validate').at(-1)!.body).toMatchObject({ email: 'someone@mailinator.com', api_key: key });
    // The screenshot shows an open suggestion list next to the filled results.
    await page.locator('#address').fill('');
    await page.locator('#address').pressSequentially('Zám', { delay: 10 });
    await options('address').first().waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, 'demo-page.png');
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.length).toBeGreaterThan(10000);
    expect(existsSync(file)).toBe(true);
  });

  it('puts a marker per suggestion on the map (no tiles configured) and reverse-geocodes a click with S-JTSK coordinates', async () => {
    await page.locator('#country').selectOption('SK');
    await page.locator('#municipality').fill('');
    await page.locator('#postal_code').fill('');
    await page.locator('#address').fill('');
    await page.locator('#address').pressSequentially('Hlavná', { delay: 10 });
    await options('address').first().waitFor();
    const suggested = await options('address').count();
    expect(suggested).toBeGreaterThan(1);
    type Doc = { document: { querySelectorAll(s: string): { length: number } } };
    await page.waitForFunction((n) => (globalThis as unknown as Doc).document.querySelectorAll('#map .leaflet-marker-icon').length === n, suggested, { timeout: 5000 });
    expect(await page.locator('#map-tiles-note').isVisible()).toBe(true);
    // Choosing a suggestion centres the map on it (zoom 17); a click a few metres beside it asks for the nearest address.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitText('#address-result', 'place_id: sk_');
    const chosen = /place_id: (sk_a\d+)/.exec((await page.locator('#address-result').textContent()) ?? '')![1];
    await page.locator('#map').scrollIntoViewIfNeeded();
    await page.waitForTimeout(400); // the view's animation
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 6, box.y + box.height / 2 + 4);
    await page.locator('#map-result').filter({ hasText: /place_id: |failed|none found/ }).waitFor({ timeout: 10000 });
    const text = (await page.locator('#map-result').textContent()) ?? '';
    expect(text).toMatch(/S-JTSK X 1\d{6}\.\d\d, Y \d{6}\.\d\d/);
    expect(text).toContain(`place_id: ${chosen}`);
    const reverse = calls('/v1/places/reverse').at(-1)!;
    expect(reverse.body).toMatchObject({ country: 'SK', api_key: await page.locator('meta[name="lookup-demo-key"]').getAttribute('content') });
    expect(typeof reverse.body['lat']).toBe('number');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#map').scrollIntoViewIfNeeded();
    const png = await page.screenshot({ path: join(ARTIFACTS, 'demo-map.png'), fullPage: true });
    expect(png.length).toBeGreaterThan(10000);
  });
});
