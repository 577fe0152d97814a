import type { FastifyRequest } from 'fastify';
import { extractKey } from './api-key.guard';

describe('extractKey', () => {
  const req = (body: unknown, query: unknown = {}, headers: Record<string, unknown> = {}) => ({ body, query, headers }) as unknown as FastifyRequest;

  it('takes the key from the body, the query string or a header, trimmed; the first of a list', () => {
    expect(extractKey(req({ api_key: ' k1 ' }))).toBe('k1');
    expect(extractKey(req({}, { api_key: 'k2' }))).toBe('k2');
    expect(extractKey(req({}, {}, { 'x-service-api-key': 'k3' }))).toBe('k3');
    expect(extractKey(req({ api_key: ['k4', 'k5'] }))).toBe('k4');
    expect(extractKey(req({ api_key: '  ' }))).toBeUndefined();
    expect(extractKey(req(undefined))).toBeUndefined();
  });

  it('reads a number sent as the key as its text (then refused as not valid, not as missing)', () => {
    expect(extractKey(req({ api_key: 12345 }))).toBe('12345');
    expect(extractKey(req({ api_key: { k: 1 } }))).toBeUndefined();
  });
});
