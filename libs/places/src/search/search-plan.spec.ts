import { parseRequest, PlaceQueryRequest } from '@lookup/contracts';
import { emptyDoc } from '../domain/place.doc';
import { mergeCandidates, planSearch, viaIpTarget } from './search-plan';

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
