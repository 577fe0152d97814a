import { parse } from 'qs';
import type { FastifyInstance } from 'fastify';

export const MAX_PARAMETERS = 200;

/**
 * qs as the official clients encode: `context[0]=a`, `a[b]=c`; bounded against abuse. More
 * than MAX_PARAMETERS is refused outright: qs would drop the rest silently, and an `api_key`
 * among them would then read as "no key".
 */
export function parseQs(text: string): Record<string, unknown> {
  if (countParams(text) > MAX_PARAMETERS) throw tooManyParameters();
  return parseFlat(text) ?? parse(text, { depth: 3, arrayLimit: 50, parameterLimit: MAX_PARAMETERS, allowDots: false, charset: 'utf-8' });
}

const BRACKETS = /[[\]]|%5[bd]/i;

/** qs's decoding: `+` is a space, and a malformed escape leaves the text as it is. */
function decodeComponent(text: string): string {
  const spaced = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * What qs makes of a form without brackets, each name once and none named like a property of
 * every object (qs drops those): `{name: value}` in order, without qs's general machinery (a
 * search's form: 1.9-2.5 µs with qs, 0.9-1.0 µs here). `undefined` for anything else, which qs parses.
 * body-parsing.spec.ts compares the two on generated forms.
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
      const key = decodeComponent(text.slice(start, hasValue ? eq : end));
      if (key !== '') {
        if (key in out || key in Object.prototype) return undefined;
        out[key] = hasValue ? decodeComponent(text.slice(eq + 1, end)) : '';
      }
    }
    start = end + 1;
  }
  return out;
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

/** The query-string half of parseQs: Fastify's query parser must not throw, so this refuses the request before it is parsed. */
export function registerQueryLimit(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req) => {
    const url = req.raw.url ?? '';
    const q = url.indexOf('?');
    if (q >= 0 && countParams(url.slice(q + 1)) > MAX_PARAMETERS) throw tooManyParameters();
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
