import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/** The official widget bundle, read in place from ../shared/clients (never copied into the project). */
export const WIDGET_BUNDLE = resolve(__dirname, '..', '..', '..', '..', 'shared', 'clients', 'swiftyper.js', 'dist', 'js', 'swiftyper.js');

/**
 * A shop's checkout page as the widget's README tells a shop to write it: the standard address
 * form (street + postal code + municipality), a municipality-only field, the business form, the
 * e-mail validator, and a Swiss address field (the store holds a record with HTML in its street
 * name there). Every widget event is recorded in `window.widgetLog` for assertions.
 */
export function widgetPageHtml(opts: { endpoint: string; apiKey: string }): string {
  const common = JSON.stringify({ endpoint: opts.endpoint, apiKey: opts.apiKey, debounce: 120, logo: false });
  return `<!DOCTYPE html>
<html lang="cs"><head><meta charset="utf-8"><title>checkout</title>
<style>
  body { font-family: sans-serif; margin: 0; padding: 12px; width: 620px; }
  section { min-height: 330px; padding: 8px; border-bottom: 1px solid #ccc; }
  input { width: 100%; padding: 6px; margin: 4px 0; box-sizing: border-box; font-size: 15px; }
  .row { display: flex; gap: 8px; } .row > div:first-child { width: 30%; } .row > div:last-child { flex: 1; }
</style></head>
<body>
  <section id="address-form"><h3>Adresa</h3>
    <div><input id="street" placeholder="Ulice a číslo"></div>
    <div class="row"><div><input id="postal" placeholder="PSČ"></div><div><input id="municipality" placeholder="Obec"></div></div>
  </section>
  <section id="town-form"><h3>Obec</h3><div><input id="town" placeholder="Obec"></div></section>
  <section id="business-form"><h3>Firma</h3>
    <div><input id="company" placeholder="Název firmy"></div>
    <div><input id="cin" placeholder="IČO"></div>
    <div><input id="bstreet" placeholder="Ulice a číslo"></div>
    <div class="row"><div><input id="bpostal" placeholder="PSČ"></div><div><input id="bmunicipality" placeholder="Obec"></div></div>
  </section>
  <section id="email-form"><h3>E-mail</h3><div><input id="email" type="email" placeholder="E-mail"></div><pre id="analysis"></pre></section>
  <section id="ch-form"><h3>Adresse (CH)</h3><div><input id="chstreet" placeholder="Strasse"></div></section>
  <script src="/swiftyper.js"></script>
  <script>
    const common = ${common};
    const log = (window.widgetLog = { suggestions: [], errors: [], changes: [], analyses: [] });
    function watch(name, widget) {
      widget.on('suggestions', (e) => log.suggestions.push({ widget: name, count: (e.suggestions || []).length }));
      widget.on('error', (e) => log.errors.push({ widget: name, message: String(e.error && (e.error.message || e.error.code)) }));
      widget.on('change', (e) => log.changes.push({ widget: name, suggestion: e.suggestion }));
      return widget;
    }
    watch('address', new swiftyper.places({ ...common, country: ['CZ'], selectors: { street: '#street', postalCode: '#postal', municipality: '#municipality' } }));
    watch('town', new swiftyper.places({ ...common, country: ['CZ'], selectors: { municipality: '#town' } }));
    watch('business', new swiftyper.business({ ...common, country: 'CZ', selectors: { name: '#company', cin: '#cin', street: '#bstreet', postalCode: '#bpostal', municipality: '#bmunicipality' } }));
    watch('ch', new swiftyper.places({ ...common, country: ['CH'], selectors: { street: '#chstreet' } }));
    const email = new swiftyper.emailValidator({ endpoint: common.endpoint, apiKey: common.apiKey, debounce: 120, selectors: { email: '#email' } });
    email.on('analysis', (a) => { log.analyses.push(a); document.getElementById('analysis').textContent = JSON.stringify(a, null, 1); });
    email.on('error', (e) => log.errors.push({ widget: 'email', message: String(e.error && (e.error.message || e.error.code)) }));
  </script>
</body></html>`;
}

/** The page and the bundle from a loopback origin of their own (not the API's), so every API call is cross-origin. */
export async function serveWidgetPage(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const bundle = readFileSync(WIDGET_BUNDLE);
  const server = createServer((req, res) => {
    if (req.url === '/swiftyper.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
