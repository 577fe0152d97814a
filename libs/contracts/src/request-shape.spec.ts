import { BusinessIdentifierRequest, BusinessQueryRequest } from './business/business.dto';
import { TranslationSubmitRequest } from './intl/translations.dto';
import { PlaceReverseRequest } from './places/reverse.dto';
import { PlaceQueryRequest, PostalQueryRequest } from './places/search.dto';
import { PlaceValidateRequest } from './places/validate.dto';
import { DomainError } from './errors';
import { parseRequest } from './validation';

function fail(fn: () => unknown): { type: string; param: string | null; status: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { type: e.type, param: e.param, status: e.status, message: e.message };
  }
  throw new Error('expected a DomainError');
}

function nested(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe('empty optional parameters are absent ones', () => {
  // What the widget's address form sends on every keystroke (issue 14).
  const widget = {
    query: 'Dlouhá 14', street: '', postal_code: '', municipality: '', country: ['CZ', 'SK'],
    limit: '', contextType: '', context: '', around_latlng: '', around_latlng_via_ip: '',
  };
  it('place search: every empty field is ignored', () => {
    const dto = parseRequest(PlaceQueryRequest, widget);
    expect(dto).toMatchObject({ query: 'Dlouhá 14', country: ['CZ', 'SK'] });
    for (const f of ['postal_code', 'limit', 'contextType', 'context', 'around_latlng', 'around_latlng_via_ip', 'street', 'municipality']) {
      expect((dto as unknown as Record<string, unknown>)[f]).toBeUndefined();
    }
  });
  it('an empty list (`country[0]=`) is absent too', () => {
    expect(parseRequest(PlaceQueryRequest, { query: 'a', country: [''] }).country).toBeUndefined();
  });
  it('reverse: distinct= and an empty S-JTSK pair beside lat/lng', () => {
    const dto = parseRequest(PlaceReverseRequest, { lat: '49.9', lng: '17.9', distinct: '', jtskX: '', jtskY: '', limit: '' });
    expect(dto).toMatchObject({ lat: 49.9, lng: 17.9 });
    expect(dto.distinct).toBeUndefined();
  });
  it('business: active= and limit=', () => {
    expect(parseRequest(BusinessQueryRequest, { query: 'skoda', active: '', limit: '', country: '' })).toMatchObject({ query: 'skoda' });
  });
  it.each([
    [PlaceQueryRequest, { query: '', postal_code: '' }, 'query'],
    [BusinessQueryRequest, { query: '' }, 'query'],
    [TranslationSubmitRequest, { translation: 'a', hash: 'h', locale: 'cs_CZ', contributor: '' }, 'contributor'],
  ])('a required parameter sent empty is still missing (%#)', (cls, body, param) => {
    expect(fail(() => parseRequest(cls as new () => object, body))).toMatchObject({ type: 'missing_parameter', param, status: 400 });
  });
});

describe('shapes no operation reads are refused naming the parameter', () => {
  it.each([
    [PlaceQueryRequest, { query: 'a', country: ['CZ', { x: 'y' }] }, 'country'],
    [PlaceQueryRequest, { query: 'a', country: [1] }, 'country'],
    [PlaceQueryRequest, { query: 'a', country: [null] }, 'country'],
    [BusinessQueryRequest, { query: 'a', country: [1] }, 'country'],
    [BusinessIdentifierRequest, { query: '1', country: ['CZ', { x: 'y' }] }, 'country'],
    [TranslationSubmitRequest, { translation: 'a', hash: 'h', locale: 'cs_CZ', contributor: 'a\ud800@b.example' }, 'contributor'],
    [PlaceQueryRequest, { query: 'x\udc00' }, 'query'],
    [PlaceQueryRequest, { query: 'a', context: nested(3000) }, 'context'],
  ])('%#: invalid_parameter', (cls, body, param) => {
    expect(fail(() => parseRequest(cls as new () => object, body))).toMatchObject({ type: 'invalid_parameter', param, status: 400 });
  });
  it('a deep object under an unknown name is refused before class-transformer sees it', () => {
    expect(fail(() => parseRequest(PlaceQueryRequest, { query: 'a', deep: nested(3000) }))).toMatchObject({ param: 'deep', status: 400 });
  });
  it('`query` sent as an object says it must be text, not that it is too long', () => {
    const e = fail(() => parseRequest(PlaceQueryRequest, { query: { a: 'b' } }));
    expect(e).toMatchObject({ type: 'invalid_parameter', param: 'query' });
    expect(e.message).toContain('must be text');
  });
  it('a whole number where a postal code, a house number or a query is text is read as its text; a fraction is still no text', () => {
    expect(parseRequest(PostalQueryRequest, { query: 56802 })).toMatchObject({ query: '56802' });
    expect(parseRequest(PlaceQueryRequest, { query: 'Nádražní', postal_code: 56802 })).toMatchObject({ postal_code: '56802' });
    expect(parseRequest(PlaceValidateRequest, { street: 'Dukelská', street_number: 425, building_number: 4, postal_code: 56802 })).toMatchObject({ street_number: '425', building_number: '4', postal_code: '56802' });
    expect(parseRequest(BusinessIdentifierRequest, { query: 27082440 })).toMatchObject({ query: '27082440' });
    expect(fail(() => parseRequest(PostalQueryRequest, { query: 568.02 }))).toMatchObject({ type: 'invalid_parameter', param: 'query' });
    expect(fail(() => parseRequest(PlaceValidateRequest, { street: 'Dukelská', street_number: -4 }))).toMatchObject({ type: 'invalid_parameter', param: 'street_number' });
  });
  it('an object value with a `constructor` key is refused, not a crash in class-transformer', () => {
    expect(fail(() => parseRequest(PlaceQueryRequest, { query: 'a', limit: { constructor: { prototype: { x: 1 } } } }))).toMatchObject({ type: 'invalid_parameter', param: 'limit' });
    expect(fail(() => parseRequest(PlaceQueryRequest, { query: 'a', constructor: 'x' }))).toMatchObject({ type: 'unexpected_parameter', param: 'constructor' });
  });
  it('a `__proto__` parameter is an unexpected one, never a prototype', () => {
    const body = JSON.parse('{"query":"a","__proto__":{"limit":"x"}}') as Record<string, unknown>;
    expect(fail(() => parseRequest(PlaceQueryRequest, body))).toMatchObject({ type: 'unexpected_parameter', param: '__proto__' });
  });
});

describe('business identifier as the PHP SDK calls it for detail', () => {
  it('takes business_id without query', () => {
    expect(parseRequest(BusinessIdentifierRequest, { business_id: 'cz_00177041' })).toMatchObject({ business_id: 'cz_00177041' });
  });
  it('still requires query without business_id, and checks business_id', () => {
    expect(fail(() => parseRequest(BusinessIdentifierRequest, {}))).toMatchObject({ type: 'missing_parameter', param: 'query' });
    expect(fail(() => parseRequest(BusinessIdentifierRequest, { business_id: 'de_1' }))).toMatchObject({ type: 'invalid_parameter', param: 'business_id' });
  });
});
