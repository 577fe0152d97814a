import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { emptyDoc } from '../domain/place.doc';
import { candidateQuery, mergeCandidates, nearFallbackQuery, nearFallbackRadii, passesCandidateFilters, planSearch, viaIpTarget } from './search-plan';

const dto = (p: Record<string, unknown>) => parseRequest(PlaceQueryRequest, { query: 'Hlavní', ...p });

describe('around_latlng_via_ip in the plan', () => {
  it('locates the caller (caller_ip, set by the gateway) when the value is true or 1', () => {
    expect(viaIpTarget(dto({ around_latlng_via_ip: 'true', caller_ip: '212.111.1.1' }))).toBe('212.111.1.1');
    expect(viaIpTarget(dto({ around_latlng_via_ip: true, caller_ip: '2001:db8::1' }))).toBe('2001:db8::1');
    expect(viaIpTarget(dto({ around_latlng_via_ip: '1', caller_ip: '212.111.1.1' }))).toBe('212.111.1.1');
    expect(viaIpTarget(dto({ around_latlng_via_ip: 'TRUE', caller_ip: '212.111.1.1' }))).toBe('212.111.1.1');
  });

  it('locates an address given as the value, whoever the caller is', () => {
    expect(viaIpTarget(dto({ around_latlng_via_ip: '158.196.0.1', caller_ip: '212.111.1.1' }))).toBe('158.196.0.1');
  });

  it('locates nothing when off, without a caller address, or when around_latlng names the point', () => {
    expect(viaIpTarget(dto({ around_latlng_via_ip: 'false', caller_ip: '212.111.1.1' }))).toBeNull();
    expect(viaIpTarget(dto({ around_latlng_via_ip: '0', caller_ip: '212.111.1.1' }))).toBeNull();
    expect(viaIpTarget(dto({ caller_ip: '212.111.1.1' }))).toBeNull();
    expect(viaIpTarget(dto({ around_latlng_via_ip: 'true' }))).toBeNull();
    expect(viaIpTarget(dto({ around_latlng_via_ip: 'true', caller_ip: '212.111.1.1', around_latlng: '49.97,16.97' }))).toBeNull();
  });

  it('rejects a caller_ip that is not an address, naming the parameter', () => {
    expect(() => dto({ caller_ip: 'localhost' })).toThrow(expect.objectContaining({ param: 'caller_ip' }));
  });

  it('biases by the located point like around_latlng; an explicit around_latlng wins', () => {
    expect(planSearch('query', dto({}), { lat: 49.22, lng: 17.66 }).rank.around).toEqual({ lat: 49.22, lng: 17.66 });
    expect(planSearch('query', dto({}), null).rank.around).toBeNull();
    expect(planSearch('query', dto({ around_latlng: '49.97,16.97' }), { lat: 49.22, lng: 17.66 }).rank.around).toEqual({ lat: 49.97, lng: 16.97 });
  });
});

describe('the candidates near a point', () => {
  it('are added to the text candidates, each document once, the text ones first', () => {
    const doc = (id: string) => emptyDoc('CZ', 'address', id, id);
    expect(mergeCandidates([doc('cz_a1'), doc('cz_a2')], [doc('cz_a3'), doc('cz_a1')]).map((d) => d.place_id)).toEqual(['cz_a1', 'cz_a2', 'cz_a3']);
    expect(mergeCandidates([], [doc('cz_a3'), doc('cz_a3')]).map((d) => d.place_id)).toEqual(['cz_a3']);
  });
});

describe('the address points around the point when the near query found none (nearFallbackQuery)', () => {
  const plan = (p: Record<string, unknown>) => planSearch('query', dto(p));
  const at = { around_latlng: '49.2265,17.6707', country: 'CZ' };

  it('reads circles from 700 m, each twice the last, up to NEAR_KM', () => {
    expect(nearFallbackRadii()).toEqual([700, 1400, 2800, 5600, 11200, 15000]);
  });

  it('asks only on SQLite, with a point, for addresses', () => {
    const p = plan(at);
    expect(nearFallbackQuery(p, candidateQuery(p, 'strict'), 700, 'sqlite')).toEqual({ lat: 49.2265, lng: 17.6707, metres: 700, countries: ['CZ'], size: 1000 });
    expect(nearFallbackQuery(p, candidateQuery(p, 'strict'), 700, 'opensearch')).toBeNull();
    const none = plan({ country: 'CZ' });
    expect(nearFallbackQuery(none, candidateQuery(none, 'strict'), 700, 'sqlite')).toBeNull();
    const streets = planSearch('street', parseRequest(PlaceQueryRequest, { query: 'Str', ...at }));
    expect(nearFallbackQuery(streets, candidateQuery(streets, 'strict'), 700, 'sqlite')).toBeNull();
  });

  it('keeps a point only where it passes the filters the engine applies to the text query', () => {
    const d = { ...emptyDoc('CZ', 'address', 'cz_a1', 'Strmá 7'), municipality_id: 'cz_m585068', postal_code: '76001' };
    const q = candidateQuery(plan({ ...at, context: 'cz_m585068', postal_code: '760' }), 'strict');
    expect(passesCandidateFilters(q, d)).toBe(true);
    expect(passesCandidateFilters(q, { ...d, municipality_id: 'cz_m1' })).toBe(false);
    expect(passesCandidateFilters(q, { ...d, postal_code: '77900' })).toBe(false);
    expect(passesCandidateFilters(q, { ...d, country: 'SK' })).toBe(false);
  });
});
