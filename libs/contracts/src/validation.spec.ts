import { CatalogueRequest } from './places/catalogue.dto';
import { PlaceDetailRequest } from './places/detail.dto';
import { parseRequest } from './validation';
import { DomainError } from './errors';

function fail(fn: () => unknown): Pick<DomainError, 'type' | 'param' | 'status'> {
  try {
    fn();
  } catch (e) {
    const d = e as DomainError;
    return { type: d.type, param: d.param, status: d.status };
  }
  throw new Error('expected a DomainError');
}

describe('parseRequest', () => {
  it('normalises a valid country code', () => {
    expect(parseRequest(CatalogueRequest, { country: ' sk ' }).country).toBe('SK');
  });
  it.each([
    [{}, 'missing_parameter', 'country'],
    [{ country: '' }, 'missing_parameter', 'country'],
    [{ country: 'DE' }, 'invalid_parameter', 'country'],
    [{ country: ['CZ', 'SK'] }, 'invalid_parameter', 'country'],
    [{ country: [5] }, 'invalid_parameter', 'country'],
    [{ country: 'CZ', x: 1 }, 'unexpected_parameter', 'x'],
  ])('%j -> %s(%s)', (body, type, param) => {
    expect(fail(() => parseRequest(CatalogueRequest, body))).toEqual({ type, param, status: 400 });
  });
  it('takes a list of one country as that country (as the searches take it); a longer list is refused as not one country', () => {
    expect(parseRequest(CatalogueRequest, { country: ['cz'] }).country).toBe('CZ');
    expect(parseRequest(CatalogueRequest, { country: [' sk '] }).country).toBe('SK');
    try {
      parseRequest(CatalogueRequest, { country: 'CZ,SK' });
      throw new Error('accepted');
    } catch (e) {
      expect((e as Error).message).toMatch(/^Invalid parameter country: one country is expected, not 2 \(one of /);
    }
  });
  it('names a wrong country cut short, not as a copy of a long value', () => {
    try {
      parseRequest(CatalogueRequest, { country: 'Y'.repeat(5000) });
      throw new Error('accepted');
    } catch (e) {
      expect((e as Error).message).toBe(`Invalid parameter country: ${'Y'.repeat(20)}… is not an available country code (one of SK, CZ, PL, AT, CH, LI).`);
    }
  });
  it('refuses a body that is not a set of named parameters', () => {
    expect(fail(() => parseRequest(CatalogueRequest, 'country=CZ'))).toEqual({ type: 'invalid_request', param: null, status: 400 });
  });
  it('checks place id shape', () => {
    expect(parseRequest(PlaceDetailRequest, { place_id: 'cz_m500011' }).place_id).toBe('cz_m500011');
    expect(fail(() => parseRequest(PlaceDetailRequest, { place_id: 'de_x' }))).toMatchObject({ type: 'invalid_parameter', param: 'place_id' });
  });
});
