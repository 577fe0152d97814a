import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A canned refusal a fake provider sends instead of its normal answer. */
export interface Refusal {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (to trip our timeout). */
  delayMs?: number;
}

export interface FakeProvider {
  url: string;
  /** Requests seen: method, path with query, headers, parsed body. */
  seen: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: unknown }>;
  /** Answers queued here are sent before the normal behaviour resumes. */
  refusals: Refusal[];
  close(): Promise<void>;
}

type Route = (req: { method: string; path: URL; headers: IncomingMessage['headers']; body: unknown }) => { status: number; body: unknown };

/** A toy dictionary: enough to see that the text went through the provider. */
const DICTIONARY: Record<string, Record<string, string>> = {
  'cs>en': { 'Dobrý den': 'Good afternoon', pes: 'dog' },
  'en>de': { dog: 'Hund', 'Good morning': 'Guten Morgen' },
  'en>sk': { dog: 'pes' },
};

export function toyTranslate(text: string, source: string, target: string): string {
  const s = source.toLowerCase().slice(0, 2);
  const t = target.toLowerCase().slice(0, 2);
  return DICTIONARY[`${s}>${t}`]?.[text] ?? `[${t}] ${text}`;
}

/** Guesses the source like a provider's detector would, from the dictionary. */
export function toyDetect(text: string): string {
  for (const [pair, words] of Object.entries(DICTIONARY)) if (text in words) return pair.slice(0, 2);
  return 'en';
}

async function start(route: Route): Promise<FakeProvider> {
  const seen: FakeProvider['seen'] = [];
  const refusals: Refusal[] = [];
  const held = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        /* keep raw */
      }
      const path = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ method: req.method ?? 'GET', path: path.pathname + path.search, headers: req.headers, body });
      const refusal = refusals.shift();
      const answer = refusal ?? route({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(refusal?.headers ?? {}) });
        res.end(JSON.stringify(answer.body));
      };
      if (!refusal?.delayMs) return send();
      const timer = setTimeout(() => {
        held.delete(timer);
        send();
      }, refusal.delayMs);
      held.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    refusals,
    close: () => new Promise<void>((resolve) => {
      for (const t of held) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const googleError = (code: number, message: string, reason: string) => ({ status: code, body: { error: { code, message, errors: [{ message, domain: 'global', reason }] } } });

/** Google Cloud Translation v2: key in `?key=`, body {q, target, source?, format}. */
export function fakeGoogle(key: string): Promise<FakeProvider> {
  return start(({ method, path, body }) => {
    if (method !== 'POST' || path.pathname !== '/language/translate/v2') return googleError(404, 'Not Found', 'notFound');
    if (path.searchParams.get('key') !== key) return googleError(400, 'API key not valid. Please pass a valid API key.', 'badRequest');
    const b = body as { q?: string; target?: string; source?: string; format?: string };
    if (!b?.q || !b.target) return googleError(400, 'Required Text', 'required');
    const source = b.source ?? toyDetect(b.q);
    const tr: Record<string, string> = { translatedText: toyTranslate(b.q, source, b.target) };
    if (!b.source) tr['detectedSourceLanguage'] = source;
    return { status: 200, body: { data: { translations: [tr] } } };
  });
}

/** DeepL v2: `Authorization: DeepL-Auth-Key`, body {text: [...], target_lang, source_lang?}. */
export function fakeDeepl(key: string): Promise<FakeProvider> {
  return start(({ method, path, headers, body }) => {
    if (headers['authorization'] !== `DeepL-Auth-Key ${key}`) return { status: 403, body: { message: 'Wrong endpoint or authorization failed' } };
    if (method !== 'POST' || path.pathname !== '/v2/translate') return { status: 404, body: { message: 'Not found' } };
    const b = body as { text?: string[]; target_lang?: string; source_lang?: string };
    if (!Array.isArray(b?.text) || !b.target_lang) return { status: 400, body: { message: "Value for 'target_lang' not supported." } };
    const source = b.source_lang ?? toyDetect(b.text[0]).toUpperCase();
    return { status: 200, body: { translations: b.text.map((t) => ({ detected_source_language: source.toUpperCase(), text: toyTranslate(t, source, b.target_lang as string) })) } };
  });
}

/** LibreTranslate: `GET /languages`, `POST /translate` {q, source, target, format, api_key}. */
export function fakeLibreTranslate(key: string, codes = ['cs', 'de', 'en', 'sk']): Promise<FakeProvider> {
  return start(({ method, path, body }) => {
    if (method === 'GET' && path.pathname === '/languages') {
      return { status: 200, body: codes.map((c) => ({ code: c, name: c.toUpperCase(), targets: codes })) };
    }
    if (method !== 'POST' || path.pathname !== '/translate') return { status: 404, body: { error: 'Not Found' } };
    const b = body as { q?: string; source?: string; target?: string; api_key?: string };
    if (b?.api_key !== key) return { status: 403, body: { error: 'Invalid API key' } };
    if (!b.target || !codes.includes(b.target)) return { status: 400, body: { error: `${b.target} is not supported` } };
    const source = b.source === 'auto' || !b.source ? toyDetect(b.q ?? '') : b.source;
    const out: Record<string, unknown> = { translatedText: toyTranslate(b.q ?? '', source, b.target) };
    if (b.source === 'auto') out['detectedLanguage'] = { confidence: 90, language: source };
    return { status: 200, body: out };
  });
}
