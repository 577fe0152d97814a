import { parse } from 'qs';
import type { FastifyInstance } from 'fastify';
import { DomainError, ErrorTypes, JSON_TEXT_PARAMS, MAX_PARAM_DEPTH } from '@lookup/contracts';

export const MAX_PARAMETERS = 200;

/**
 * `depth`: as deep as normaliseParams lets any value nest (MAX_PARAM_DEPTH; it refuses the
 * deepest such value by name), and `strictDepth` refuses a deeper name instead of keeping its
 * rest as one literal key: with depth 3, `native_strings[phrases][0][jsfbt][t][*]` became a key
 * `[t][*]`, and an fbt table was stored re-keyed (a reviewer's PHP SDK upload).
 */
const QS_OPTIONS = { depth: MAX_PARAM_DEPTH, strictDepth: true, arrayLimit: 50, parameterLimit: MAX_PARAMETERS, allowDots: false, charset: 'utf-8' as const };

/**
 * qs as the official clients encode: `context[0]=a`, `a[b]=c`; bounded against abuse. More
 * than MAX_PARAMETERS is refused outright: qs would drop the rest silently, and an `api_key`
 * among them would then read as "no key". What qs would misread silently is refused too,
 * naming the parameter as a JSON body's refusal does: a malformed percent-encoding (qs keeps
 * the raw text; the official clients encode every `%`, so only a broken client sends one), and
 * the names qs drops that a JSON body's keys are refused for (`__proto__`, `constructor`; in
 * JSON they stay keys, which `normaliseParams` refuses; see checkName). Such a parameter sent
 * empty is an absent one, as in JSON.
 */
export function parseQs(text: string): Record<string, unknown> {
  if (countParams(text) > MAX_PARAMETERS) throw tooManyParameters();
  return parseFlat(text) ?? refuseJsonAsFields(parseNested(text));
}

/** A JSON document sent as form fields (JSON_TEXT_PARAMS): refused by name, never stored as another document. */
function refuseJsonAsFields(params: Record<string, unknown>): Record<string, unknown> {
  for (const name of JSON_TEXT_PARAMS) {
    const value = params[name];
    if (typeof value === 'object' && value !== null) {
      throw DomainError.invalidParameter(
        name,
        `must be the document's JSON text (JSON.stringify, PHP's json_encode) or sent in a JSON body: as form fields its numbers, booleans, nulls and empty lists are lost.`,
      );
    }
  }
  return params;
}

const BRACKETS = /[[\]]|%5[bd]/i;

const hasOwn = Object.prototype.hasOwnProperty;

/** A name qs drops without a word (own properties of every object: `__proto__`, `constructor`, `toString`, ...). */
function isPrototypeName(name: string): boolean {
  return hasOwn.call(Object.prototype, name);
}

/**
 * The names qs drops that `normaliseParams` refuses in a JSON body, as a parameter or as a key
 * inside one (README, Errors; `prototype`, the third, qs keeps, and normaliseParams refuses
 * it). Any other name qs drops (`toString`, `valueOf`, ...) a JSON body loses too (class-
 * transformer skips such a parameter, and a value holding such a key reads as no value), so
 * qs may drop it.
 */
function isRefusedName(name: string): boolean {
  return name === '__proto__' || name === 'constructor';
}

/** Form decoding: `+` is a space; `undefined` for a malformed escape (`%ZZ`, `%E0%A4%A`, `%ED%A0%80`). */
function decodeStrict(text: string): string | undefined {
  const spaced = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

const badName = () => new DomainError(ErrorTypes.invalidRequest, 'A parameter name has an invalid percent-encoding.');
const badValue = (name: string) => DomainError.invalidParameter(name, 'the value has an invalid percent-encoding.');
/** As `normaliseParams` refuses the same keys of a JSON body. */
const nestedPrototypeName = (name: string, key: string) => DomainError.invalidParameter(name, `a key named ${key} is not accepted.`);

/**
 * What qs makes of a form without brackets, each name once: `{name: value}` in order, without
 * qs's general machinery (a search's form: 1.9-2.5 µs with qs, 0.9-1.0 µs here). `undefined`
 * for anything else, which qs parses. body-parsing.spec.ts compares the two on generated forms.
 */
export function parseFlat(text: string): Record<string, string> | undefined {
  if (BRACKETS.test(text)) return undefined;
  const out: Record<string, string> = {};
  let start = 0;
  // qs reads the first MAX_PARAMETERS parts, empty ones included.
  for (let part = 0; start <= text.length; part++) {
    if (part === MAX_PARAMETERS) return undefined;
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      const eq = text.indexOf('=', start);
      const hasValue = eq !== -1 && eq < end;
      const key = decodeStrict(text.slice(start, hasValue ? eq : end));
      if (key === undefined) throw badName();
      if (key !== '') {
        const value = hasValue ? decodeStrict(text.slice(eq + 1, end)) : '';
        if (value === undefined) throw badValue(key);
        if (isPrototypeName(key)) {
          // qs drops it; a refused name with a value is refused instead (sent empty, it is absent).
          if (value !== '' && isRefusedName(key)) throw DomainError.unexpectedParameter(key);
        } else {
          if (hasOwn.call(out, key)) return undefined;
          out[key] = value;
        }
      }
    }
    start = end + 1;
  }
  return out;
}

// qs decodes a part's name, then its value, one part after the other: what the value's
// decoder needs to know about its name (for the error naming it) is kept here meanwhile.
let decodingName = '';
let bareRefusedName = false;

/** qs's decoder, strict (see parseQs); checks each name as qs will split it (`a[b][c]`). */
function qsDecoder(text: string, _default: unknown, _charset: unknown, type: 'key' | 'value'): string {
  const decoded = decodeStrict(text);
  if (type === 'key') {
    if (decoded === undefined) throw badName();
    checkName(decoded);
    return decoded;
  }
  if (decoded === undefined) {
    // A part without a name (`=%ZZ`) is no parameter: qs drops it, as parseFlat does.
    if (decodingName === '') return text;
    throw badValue(decodingName);
  }
  if (bareRefusedName && decoded !== '') throw DomainError.unexpectedParameter(decodingName);
  return decoded;
}

/**
 * Refuses a refused name as the parameter (`constructor[0]`) or inside one
 * (`context[__proto__]`, `context[0][constructor]`): the text of any bracket pair without
 * brackets inside, a superset of the groups qs splits a name into. The parameter is the root,
 * or the first group for a name starting with `[` (qs reads `[a]=1` as `a=1`).
 */
function checkName(key: string): void {
  let open = key.indexOf('[');
  bareRefusedName = false;
  if (open === -1) {
    decodingName = key;
    bareRefusedName = isRefusedName(key);
    return;
  }
  let name = key.slice(0, open);
  let named = name !== '';
  if (named && isRefusedName(name)) throw DomainError.unexpectedParameter(name);
  while (open !== -1) {
    const next = key.indexOf('[', open + 1);
    const close = key.indexOf(']', open + 1);
    if (close !== -1 && (next === -1 || close < next)) {
      const group = key.slice(open + 1, close);
      if (!named) {
        named = true;
        name = group;
        if (isRefusedName(group)) throw DomainError.unexpectedParameter(group);
      } else if (isRefusedName(group)) {
        throw nestedPrototypeName(name || key, group);
      }
    }
    open = next;
  }
  decodingName = name || key;
}

const QS_STRICT = { ...QS_OPTIONS, decoder: qsDecoder as never };

/** parseQs's qs path (exported for body-parsing.spec.ts, which compares it with parseFlat). */
export function parseNested(text: string): Record<string, unknown> {
  decodingName = '';
  bareRefusedName = false;
  try {
    return parse(text, QS_STRICT);
  } catch (err) {
    // strictDepth's refusal (a RangeError), raised after every name was decoded: name the parameter.
    if (err instanceof RangeError) throw DomainError.invalidParameter(tooDeepName(text), `the value nests deeper than ${MAX_PARAM_DEPTH} levels.`);
    throw err;
  }
}

/** The parameter of the first name with more bracket groups than QS_OPTIONS.depth (`a` of `a[1]...[9]`; the first group of `[a][1]...`). */
function tooDeepName(text: string): string {
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    const key = decodeStrict(eq === -1 ? part : part.slice(0, eq)) ?? '';
    const groups = key.match(/\[[^[\]]*\]/g) ?? [];
    if (groups.length <= QS_OPTIONS.depth) continue;
    const root = key.slice(0, key.indexOf('['));
    return root || groups[0]!.slice(1, -1);
  }
  return decodingName;
}

export function countParams(text: string): number {
  let count = 0;
  let start = 0;
  for (let end = text.indexOf('&'); end !== -1; end = text.indexOf('&', start)) {
    if (end > start) count++;
    start = end + 1;
  }
  return start < text.length ? count + 1 : count;
}

export const tooManyParameters = () => new BodyError('TOO_MANY_PARAMETERS', `More than ${MAX_PARAMETERS} parameters: the request is refused.`);

/** Where parseQueryString leaves its refusal for registerQueryLimit's hook: a key no parameter name can be. */
const REFUSED = Symbol('refused query string');

/**
 * The query-string half of parseQs, Fastify's `querystringParser`. It runs inside the router,
 * where a throw would not become an answer, so a refusal is handed on as the parsed query and
 * registerQueryLimit's hook throws it. Over MAX_PARAMETERS, the hook has refused the request first.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  try {
    return parseQs(text);
  } catch (err) {
    return { [REFUSED]: err } as Record<string, unknown>;
  }
}

/** Refuses a query string over MAX_PARAMETERS, or one parseQueryString refused (a malformed escape, a name qs drops). */
export function registerQueryLimit(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req) => {
    const url = req.raw.url ?? '';
    const q = url.indexOf('?');
    if (q >= 0 && countParams(url.slice(q + 1)) > MAX_PARAMETERS) throw tooManyParameters();
    const refused = (req.query as Record<symbol, unknown> | null | undefined)?.[REFUSED];
    if (refused !== undefined) throw refused;
  });
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A 400 the error filter renders as is: a client fault in the body, said plainly. */
export class BodyError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const SUPPORTED_BODY_TYPES = 'application/x-www-form-urlencoded or application/json';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, refusing bytes that are not UTF-8 (instead of Fastify's length complaint). */
function bodyText(body: Buffer): string {
  try {
    return utf8.decode(body).trim();
  } catch {
    throw new BodyError('BODY_NOT_UTF8', 'The request body is not valid UTF-8.');
  }
}

type Done = (err: Error | null, body?: unknown) => void;

function parseJson(text: string, done: Done): void {
  if (!text) return done(null, {});
  try {
    done(null, JSON.parse(text));
  } catch {
    done(new BodyError('FST_ERR_CTP_INVALID_JSON', 'The JSON body could not be parsed.'), undefined);
  }
}

function parseWith(parse: (text: string, done: Done) => void): (req: unknown, body: string | Buffer, done: Done) => void {
  return (_req, body, done) => {
    let text: string;
    try {
      text = bodyText(body as Buffer);
    } catch (err) {
      return done(err as Error, undefined);
    }
    parse(text, done);
  };
}

function parseForm(text: string, done: Done): void {
  try {
    done(null, text ? parseQs(text) : {});
  } catch (err) {
    done(err as Error, undefined);
  }
}

/**
 * Form bodies parsed qs-style, JSON bodies as usual, and a body on a GET (the Node SDK sends
 * its key that way on the IP route). An empty body is an empty parameter set. A body without
 * a Content-Type is read as JSON when it looks like it, else as a form (curl and hand-written
 * clients); any other declared type (text/plain, multipart, ...) is refused naming the two we
 * read: no official client sends one for an operation of the interface (the PHP SDK uses
 * multipart only for image upload, which we do not serve), and guessing a format from a body
 * the client labelled otherwise is how parameters get silently misread.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  // Fastify 5 never reads a GET body (GET is in its "bodyless" set), so the Node SDK's key would
  // be lost on `GET /v1/utils/ip/{ip}`. A GET without a body is handled exactly as before.
  fastify.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  for (const type of ['application/x-www-form-urlencoded', 'application/json', 'text/plain']) {
    if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);
  }
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, parseWith(parseForm));
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseWith(parseJson));
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    const declared = req.headers['content-type'];
    if (declared !== undefined && declared.trim() !== '') {
      const type = declared.split(';')[0].trim().toLowerCase().slice(0, 100);
      return done(new BodyError('UNSUPPORTED_BODY_TYPE', `Content-Type ${JSON.stringify(type)} is not read: send the parameters as ${SUPPORTED_BODY_TYPES}.`), undefined);
    }
    parseWith((text, d) => (text.startsWith('{') ? parseJson(text, d) : parseForm(text, d)))(req, body, done);
  });
}
