import { DomainError } from '../errors';
import { parseRequest } from '../validation';
import { PlaceReverseRequest } from './reverse.dto';
import { PlaceQueryRequest, PostalQueryRequest } from './search.dto';

function failure(fn: () => unknown): { type: string; param: string | null } {
  try {
    fn();
  } catch (err) {
    const e = err as DomainError;
    return { type: e.type, param: e.param ?? null };
  }
  throw new Error('expected a validation error');
}

describe('place search DTOs', () => {
  it('takes arrays as qs sends them, JSON arrays and comma-separated text', () => {
    expect(parseRequest(PlaceQueryRequest, { query: 'x', context: ['cz_m1', 'cz_c2'] }).context).toEqual(['cz_m1', 'cz_c2']);
    expect(parseRequest(PlaceQueryRequest, { query: 'x', context: { 0: 'cz_m1', 1: 'cz_c2' } }).context).toEqual(['cz_m1', 'cz_c2']);
    expect(parseRequest(PlaceQueryRequest, { query: 'x', context: 'cz_m1,cz_c2' }).context).toEqual(['cz_m1', 'cz_c2']);
    expect(parseRequest(PlaceQueryRequest, { query: 'x', country: 'cz, sk' }).country).toEqual(['CZ', 'SK']);
    expect(parseRequest(PlaceQueryRequest, { query: 'x', country: ['SK'] }).country).toEqual(['SK']);
  });

  it('applies limit bounds 1..20, default 7 left to the service', () => {
    expect(parseRequest(PlaceQueryRequest, { query: 'x', limit: '20' }).limit).toBe(20);
    expect(parseRequest(PlaceQueryRequest, { query: 'x' }).limit).toBeUndefined();
    for (const limit of ['0', '21', '7.5', 'seven']) expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', limit }))).toEqual({ type: 'invalid_parameter', param: 'limit' });
  });

  it('is idempotent: the handler re-validates what the gateway produced', () => {
    const once = parseRequest(PlaceQueryRequest, { query: 'x', limit: '3', country: 'CZ,SK', context: { 0: 'cz_m1' }, around_latlng: '49.9,17.9', around_latlng_via_ip: 'true' });
    const twice = parseRequest(PlaceQueryRequest, JSON.parse(JSON.stringify(once)));
    expect({ ...twice }).toEqual({ ...once });
  });

  it('names the country code at fault, as the user wrote it (not the parsed list)', () => {
    const message = (country: unknown) => {
      try {
        parseRequest(PlaceQueryRequest, { query: 'x', country });
      } catch (err) {
        return (err as DomainError).message;
      }
      return 'accepted';
    };
    const available = '(available: SK, CZ, PL, AT, CH, LI; several separated by commas)';
    expect(message('LI,XX')).toBe(`Invalid parameter country: XX is not an available country code ${available}.`);
    expect(message({ 0: 'LIE' })).toBe(`Invalid parameter country: LIE is not an available country code ${available}.`);
    expect(message('DE, AT, FR')).toBe(`Invalid parameter country: DE, FR are not available country codes ${available}.`);
    expect(message('CZ,SK,PL,AT,CH,LI,CZ')).toBe(`Invalid parameter country: country lists 7 codes, at most 6 ${available}.`);
    // Not a copy of whatever was sent: each value cut short, at most three named.
    expect(message('X'.repeat(5000))).toBe(`Invalid parameter country: ${'X'.repeat(20)}… is not an available country code ${available}.`);
    expect(message('AA,BB,CC,DD,EE')).toBe(`Invalid parameter country: AA, BB, CC and 2 more are not available country codes ${available}.`);
  });

  it('names the offending parameter', () => {
    expect(failure(() => parseRequest(PlaceQueryRequest, {}))).toEqual({ type: 'missing_parameter', param: 'query' });
    expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', country: 'CZ,DE' }))).toEqual({ type: 'invalid_parameter', param: 'country' });
    expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', context: ['nope'] }))).toEqual({ type: 'invalid_parameter', param: 'context' });
    expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', contextType: 'soft' }))).toEqual({ type: 'invalid_parameter', param: 'contextType' });
    expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', around_latlng: '91,10' }))).toEqual({ type: 'invalid_parameter', param: 'around_latlng' });
    expect(failure(() => parseRequest(PlaceQueryRequest, { query: 'x', around_latlng_via_ip: 'yes please' }))).toEqual({ type: 'invalid_parameter', param: 'around_latlng_via_ip' });
    expect(parseRequest(PlaceQueryRequest, { query: 'x', around_latlng_via_ip: '203.0.113.7' }).around_latlng_via_ip).toBe('203.0.113.7');
    expect(failure(() => parseRequest(PostalQueryRequest, { query: '746', postal_code: 'abc' }))).toEqual({ type: 'unexpected_parameter', param: 'postal_code' });
  });

  it('takes lat/lng or S-JTSK in either sign for reverse, distinct in metres', () => {
    expect(parseRequest(PlaceReverseRequest, { lat: '49.9', lng: '17.9' })).toMatchObject({ lat: 49.9, lng: 17.9 });
    expect(parseRequest(PlaceReverseRequest, { jtskX: '-1095469.93', jtskY: '-491234.11', distinct: '25' })).toMatchObject({ jtskX: -1095469.93, jtskY: -491234.11, distinct: 25 });
    expect(failure(() => parseRequest(PlaceReverseRequest, {}))).toEqual({ type: 'missing_parameter', param: 'lat' });
    expect(failure(() => parseRequest(PlaceReverseRequest, { lat: '49.9' }))).toEqual({ type: 'missing_parameter', param: 'lng' });
    expect(failure(() => parseRequest(PlaceReverseRequest, { jtskX: '1095469.93' }))).toEqual({ type: 'missing_parameter', param: 'jtskY' });
    expect(failure(() => parseRequest(PlaceReverseRequest, { lat: '95', lng: '17' }))).toEqual({ type: 'invalid_parameter', param: 'lat' });
    expect(failure(() => parseRequest(PlaceReverseRequest, { jtskX: '49.9', jtskY: '17.9' }))).toEqual({ type: 'invalid_parameter', param: 'jtskX' });
    expect(failure(() => parseRequest(PlaceReverseRequest, { lat: '49.9', lng: '17.9', distinct: '-1' }))).toEqual({ type: 'invalid_parameter', param: 'distinct' });
  });
});
