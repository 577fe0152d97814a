import { stringify } from 'qs';

/**
 * A deterministic corpus of mutated requests over every route of the interface (and the intl
 * extensions): wrong types, lists and nested objects, empty and overlong values, invalid
 * UTF-8, lone surrogates, deep JSON, prototype keys, FTS5/Lucene syntax, mangled path ids.
 * The same seed gives the same requests, so a failure can be replayed.
 */
export interface FuzzRoute {
  method: 'GET' | 'POST';
  path: string;
  base: Record<string, unknown>;
  /** Path ids to mangle: the route's path with `:id` in it. */
  idPath?: string;
  /** Served by an outside provider (DNS, translator, VIES): unreachable in the test, so 503/504 are its honest answers. */
  outside?: boolean;
}

const phrase = JSON.stringify([{ hashToText: { h1: 'Hello' }, desc: 'greeting', project: 'fuzz', author: 'a@b.example', type: 'text', jsfbt: 'Hello' }]);
const member = { contributor: 'anna@shop.example' };

export const FUZZ_ROUTES: FuzzRoute[] = [
  { method: 'POST', path: '/v1/places/query', base: { query: 'Praha', country: 'CZ' } },
  { method: 'POST', path: '/v1/places/street', base: { query: 'Dlouhá' } },
  { method: 'POST', path: '/v1/places/municipality', base: { query: 'Opava', postal_code: '746' } },
  { method: 'POST', path: '/v1/places/postal', base: { query: '746 01' } },
  { method: 'POST', path: '/v1/places/reverse', base: { lat: '49.94', lng: '17.90', distinct: '50' } },
  { method: 'POST', path: '/v1/places/regions', base: { country: 'CZ' } },
  { method: 'POST', path: '/v1/places/counties', base: { country: 'SK' } },
  { method: 'POST', path: '/v1/places/municipalities', base: { country: 'CZ' } },
  { method: 'POST', path: '/v1/places/:id', idPath: 'cz_m500011', base: {} },
  { method: 'POST', path: '/v1/business/query', base: { query: 'skoda', active: 'true' } },
  { method: 'POST', path: '/v1/business/identifier', base: { query: '00177041' } },
  { method: 'POST', path: '/v1/business/:id', idPath: 'cz_00177041', base: {} },
  { method: 'POST', path: '/v1/intl/phrases/upload', base: { native_strings: phrase } },
  { method: 'POST', path: '/v1/intl/phrases/query', base: { query: 'Hello' } },
  { method: 'POST', path: '/v1/intl/translation/submit', base: { translation: 'Ahoj', hash: 'h1', phash: 'h1', locale: 'cs_CZ', ...member } },
  { method: 'POST', path: '/v1/intl/translations/query', base: { locale: 'cs_CZ' } },
  { method: 'POST', path: '/v1/intl/translations/vote', base: { trid: '1', ...member } },
  { method: 'POST', path: '/v1/intl/translations/approve', base: { trid: '1', ...member } },
  { method: 'POST', path: '/v1/intl/translations/reject', base: { trid: '1', ...member } },
  { method: 'POST', path: '/v1/intl/translations/bulk-approve', base: { locale: 'cs_CZ', ...member } },
  { method: 'POST', path: '/v1/intl/translations/upload', base: { translations: '{"fb-locale":"cs_CZ","translations":{}}', ...member } },
  { method: 'POST', path: '/v1/intl/translations/export', base: { locale: 'cs_CZ' } },
  { method: 'GET', path: '/v1/intl/translations/raw', base: { locale: 'cs_CZ' } },
  { method: 'POST', path: '/v1/utils/email/validate', base: { email: 'anna@shop.example' }, outside: true },
  { method: 'POST', path: '/v1/utils/translator/translate', base: { q: 'hello', sl: 'en', tl: 'cs' }, outside: true },
  { method: 'GET', path: '/v1/utils/ip/:id', idPath: '8.8.8.8', base: {}, outside: true },
  { method: 'POST', path: '/v1/utils/vies/check-vat-number', base: { countryCode: 'CZ', vatNumber: '00177041' }, outside: true },
];

const ENGINE_SYNTAX = ['"', '"a', 'a*', '*', 'NEAR(a b)', 'a AND OR NOT b', '^3', 'title:(a OR b)^3', '[* TO *]', '{!lucene}x', '/.*/', 'a~2', '\\', '+-&&||!(){}[]^"~*?:\\/', "'; DROP TABLE x; --", 'col:val', '(', ')', 'a:b:c', '%', '_'];

function nest(levels: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = asArray ? [v] : { a: v };
  return v;
}

function mutantValue(r: () => number, base: unknown): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  switch (Math.floor(r() * 22)) {
    case 0: return '';
    case 1: return ' ';
    case 2: return 'x'.repeat(pick([201, 1000, 20000]));
    case 3: return [base, base];
    case 4: return [base, { x: 'y' }];
    case 5: return { x: base };
    case 6: return pick([0, -1, 1e308, 3.5, -0]);
    case 7: return pick([true, false]);
    case 8: return null;
    case 9: return `a\ud800b`;
    case 10: return '\udc00';
    case 11: return nest(pick([5, 9, 50]), 'x', r() < 0.5);
    case 12: return pick(ENGINE_SYNTAX);
    case 13: return `${String(base)} ${pick(ENGINE_SYNTAX)}`;
    case 14: return pick(['\u0000', '\u202e', '😀', 'Ł', 'ß', '\r\n', '<script>alert(1)</script>', '%ff', '%', '%%2']);
    case 15: return [];
    case 16: return {};
    case 17: return pick(['NaN', 'Infinity', '-1', '1e400', '0x10', '1,2', '49.9,17.9,1']);
    case 18: return { __proto__x: 1, constructor: { prototype: { polluted: 1 } } };
    case 19: return Array.from({ length: 60 }, (_, i) => `${String(base)}${i}`);
    case 20: return pick(['CZ,SK', 'cz', 'XX', 'CZ,CZ,CZ,CZ,CZ,CZ,CZ']);
    default: return String(base ?? '').split('').reverse().join('');
  }
}

const EXTRA_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'limit', 'country', 'context', 'contextType', 'around_latlng', 'around_latlng_via_ip', 'postal_code', 'x', 'query[0]', 'api_keyx', '__req'];

export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** For reports: what was mutated. */
  label: string;
  outside: boolean;
}

/** Percent-encoded; a lone surrogate becomes the bytes of its (invalid) UTF-8 form, as a careless client would send it. */
function encodePathId(id: string): string {
  return id.replace(/[^A-Za-z0-9_.~-]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) return '%ED%A0%80';
    return encodeURIComponent(c);
  });
}

type KeyPlace = 'body' | 'query' | 'header1' | 'header2';

/** One mutated request; the API key goes where `keyPlace` says, so that every channel is exercised. */
export function fuzzRequest(r: () => number, key: string): FuzzRequest {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const route = pick(FUZZ_ROUTES);
  const params: Record<string, unknown> = { ...route.base };
  const names = [...Object.keys(params), ...EXTRA_NAMES];
  const mutations: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const name = pick(names);
    const value = mutantValue(r, params[name] ?? 'x');
    Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true });
    mutations.push(name);
  }
  let path = route.path;
  if (route.idPath) {
    const id = r() < 0.6 ? String(mutantValue(r, route.idPath)) : route.idPath;
    path = path.replace(':id', encodePathId(id).slice(0, 300));
    mutations.push(`id=${id.slice(0, 20)}`);
  }
  const keyPlace = pick<KeyPlace>(['body', 'query', 'header1', 'header2']);
  const headers: Record<string, string> = {};
  if (keyPlace === 'header1') headers['x-service-api-key'] = key;
  if (keyPlace === 'header2') headers['x-swiftyper-api-key'] = key;
  if (keyPlace === 'body') params['api_key'] = key;
  const encoding = route.method === 'GET' ? pick(['query', 'query', 'json']) : pick(['form', 'json', 'query', 'raw-utf8', 'deep-json']);
  let body: Buffer | undefined;
  let query = keyPlace === 'query' ? `api_key=${encodeURIComponent(key)}` : '';
  const form = () => stringify(params, { encodeValuesOnly: false, allowDots: false });
  if (encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = Buffer.from(form());
  } else if (encoding === 'json') {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(params));
  } else if (encoding === 'query') {
    query = [query, form()].filter(Boolean).join('&');
  } else if (encoding === 'raw-utf8') {
    // Invalid UTF-8 bytes inside an otherwise well-formed form body.
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = Buffer.concat([Buffer.from(`${form()}&query=`), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80])]);
  } else {
    headers['content-type'] = 'application/json';
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    body = Buffer.from(`${JSON.stringify(params).slice(0, -1)}${Object.keys(params).length ? ',' : ''}"deep":${deep}}`);
  }
  return { method: route.method, path: query ? `${path}?${query}` : path, headers, body, label: `${route.method} ${route.path} [${encoding}] ${mutations.join(', ')}`, outside: route.outside === true };
}
