import 'reflect-metadata';
import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import type { FastifyRequest } from 'fastify';
import { requestParams } from './request-params';

const req = (query: unknown, body: unknown, params: unknown) => ({ query, body, params }) as unknown as FastifyRequest;

describe('requestParams', () => {
  it('merges query string, body and path (later wins, first place kept) without the transport parameters', () => {
    const merged = requestParams(req({ query: 'q', api_key: 'K', limit: '3' }, { limit: '5', __req: 2, country: 'CZ' }, { place_id: 'cz_m_1' }));
    expect(merged).toEqual({ query: 'q', limit: '5', country: 'CZ', place_id: 'cz_m_1' });
    expect(Object.keys(merged)).toEqual(['query', 'limit', 'country', 'place_id']);
  });

  it('keeps a JSON `__proto__` as a parameter, refused by name, never as the prototype', () => {
    const merged = requestParams(req({}, JSON.parse('{"query":"x","__proto__":{"limit":"99"}}'), {}));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['query', '__proto__']);
    expect((merged as { limit?: unknown }).limit).toBeUndefined();
    expect(() => parseRequest(PlaceQueryRequest, merged)).toThrow(/__proto__/);
  });

  it('refuses a body that is not a set of named parameters', () => {
    expect(() => requestParams(req({}, ['a'], {}))).toThrow(/named parameters/);
    expect(() => requestParams(req({}, 'text', {}))).toThrow(/named parameters/);
  });
});
