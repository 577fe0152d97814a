import { DomainError } from '../errors';
import { parseRequest } from '../validation';
import { BusinessDetailRequest, BusinessIdentifierRequest, BusinessQueryRequest } from './business.dto';

function errorOf(fn: () => unknown): { type: string; param: string | null } {
  try {
    fn();
  } catch (e) {
    return { type: (e as DomainError).type, param: (e as DomainError).param };
  }
  throw new Error('expected a DomainError');
}

describe('business request DTOs', () => {
  it('active: true/1 filter, false/0 and omission mean all; the result re-validates (both ends)', () => {
    for (const [v, out] of [['true', true], ['1', true], [true, true], ['false', false], ['0', false], [undefined, undefined], ['', undefined]] as const) {
      const dto = parseRequest(BusinessQueryRequest, { query: 'x', active: v });
      expect([v, dto.active]).toEqual([v, out]);
      expect(parseRequest(BusinessQueryRequest, { ...dto }).active).toBe(out);
    }
    expect(errorOf(() => parseRequest(BusinessQueryRequest, { query: 'x', active: 'yes please' }))).toEqual({ type: 'invalid_parameter', param: 'active' });
  });

  it('country and limit as the place searches take them', () => {
    expect(parseRequest(BusinessQueryRequest, { query: 'x', country: 'cz,sk', limit: '20' })).toMatchObject({ country: ['CZ', 'SK'], limit: 20 });
    expect(errorOf(() => parseRequest(BusinessQueryRequest, { query: 'x', limit: '0' })).param).toBe('limit');
    expect(errorOf(() => parseRequest(BusinessQueryRequest, { query: 'x', country: 'XX' })).param).toBe('country');
    expect(errorOf(() => parseRequest(BusinessQueryRequest, {}))).toEqual({ type: 'missing_parameter', param: 'query' });
  });

  it('identifier: digits and spaces, numbers from JSON bodies', () => {
    expect(parseRequest(BusinessIdentifierRequest, { query: '001 77 041' }).query).toBe('001 77 041');
    expect(parseRequest(BusinessIdentifierRequest, { query: 177041 }).query).toBe('177041');
    expect(errorOf(() => parseRequest(BusinessIdentifierRequest, { query: 'CZ00177041' }))).toEqual({ type: 'invalid_parameter', param: 'query' });
    expect(errorOf(() => parseRequest(BusinessIdentifierRequest, { query: '12345678901' })).param).toBe('query');
  });

  it('detail: a country-prefixed id; the spec-listed extras are accepted', () => {
    expect(parseRequest(BusinessDetailRequest, { business_id: 'cz_00177041', query: 'x', contextType: 'strict' }).business_id).toBe('cz_00177041');
    expect(errorOf(() => parseRequest(BusinessDetailRequest, { business_id: 'pl_1' }))).toEqual({ type: 'invalid_parameter', param: 'business_id' });
  });
});
