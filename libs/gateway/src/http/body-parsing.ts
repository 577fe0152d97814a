import { parse } from 'qs';
import type { FastifyInstance } from 'fastify';

/** qs as the official clients encode: `context[0]=a`, `a[b]=c`; bounded against abuse. */
export function parseQs(text: string): Record<string, unknown> {
  return parse(text, { depth: 3, arrayLimit: 50, parameterLimit: 200, allowDots: false, charset: 'utf-8' });
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Form bodies parsed qs-style, JSON bodies as usual, and a body on a GET (the Node SDK sends
 * its key that way on the IP route). An empty body is an empty parameter set.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  // Fastify 5 never reads a GET body (GET is in its "bodyless" set), so the Node SDK's key would
  // be lost on `GET /v1/utils/ip/{ip}`. A GET without a body is handled exactly as before.
  fastify.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  if (fastify.hasContentTypeParser('application/x-www-form-urlencoded')) fastify.removeContentTypeParser('application/x-www-form-urlencoded');
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseQs(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error('The JSON body could not be parsed.') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = 'FST_ERR_CTP_INVALID_JSON';
      done(err, undefined);
    }
  });
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, {});
    if (text.startsWith('{')) {
      try {
        return done(null, JSON.parse(text));
      } catch {
        /* fall through to form */
      }
    }
    done(null, parseQs(text));
  });
}
