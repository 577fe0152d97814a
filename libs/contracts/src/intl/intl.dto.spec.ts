import { DomainError } from '../errors';
import { parseRequest } from '../validation';
import { PhraseQueryRequest, PhraseUploadMessage } from './phrases.dto';
import { TranslationActionRequest, TranslationSubmitMessage, TranslationSubmitRequest } from './translations.dto';

function fail(fn: () => unknown): Pick<DomainError, 'type' | 'param'> {
  try {
    fn();
  } catch (e) {
    const d = e as DomainError;
    return { type: d.type, param: d.param };
  }
  throw new Error('expected a DomainError');
}

const submit = { translation: 'Ahoj', hash: 'abc', locale: 'cs_CZ', contributor: 'anna@shop.example' };

describe('intl DTOs', () => {
  it('takes form-encoded token arrays (strings) as numbers', () => {
    const dto = parseRequest(TranslationSubmitRequest, { ...submit, phash: 'abc', tokens: ['number'], types: ['2'], variations: ['24'] });
    expect([dto.tokens, dto.types, dto.variations]).toEqual([['number'], [2], [24]]);
  });

  it.each([
    [{ ...submit, locale: 'cs-CZ' }, 'invalid_parameter', 'locale'],
    [{ ...submit, contributor: 'anna' }, 'invalid_parameter', 'contributor'],
    [{ ...submit, variations: ['7'] }, 'invalid_parameter', 'variations'],
    [{ ...submit, types: [9] }, 'invalid_parameter', 'types'],
    [{ ...submit, tokens: 'number' }, 'invalid_parameter', 'tokens'],
    [{ ...submit, translation: undefined }, 'missing_parameter', 'translation'],
    // The project comes from the API key, never from the caller.
    [{ ...submit, project: 'other' }, 'unexpected_parameter', 'project'],
  ])('%j -> %s(%s)', (body, type, param) => {
    expect(fail(() => parseRequest(TranslationSubmitRequest, body))).toEqual({ type, param });
  });

  it('requires the project on internal messages', () => {
    expect(fail(() => parseRequest(TranslationSubmitMessage, submit))).toEqual({ type: 'missing_parameter', param: 'project' });
    expect(parseRequest(TranslationSubmitMessage, { ...submit, project: 'shop' }).project).toBe('shop');
    expect(fail(() => parseRequest(PhraseUploadMessage, { native_strings: '[]', project: 'shop', hash_check: 'off' }))).toEqual({ type: 'invalid_parameter', param: 'hash_check' });
  });

  it('takes the collection itself from a JSON body', () => {
    expect(parseRequest(PhraseUploadMessage, { native_strings: [{ desc: 'x' }], project: 'shop' }).native_strings).toBe('[{"desc":"x"}]');
  });

  it('reads trid from a form string and refuses anything else', () => {
    expect(parseRequest(TranslationActionRequest, { trid: '12', contributor: 'a@b.example' }).trid).toBe(12);
    expect(fail(() => parseRequest(TranslationActionRequest, { trid: 'x', contributor: 'a@b.example' }))).toEqual({ type: 'invalid_parameter', param: 'trid' });
    // Past the tables' integer no translation has the id (99999999999999999999 was read as 1e20 and answered 404 with that number).
    for (const trid of ['99999999999999999999', '2147483648']) expect(fail(() => parseRequest(TranslationActionRequest, { trid, contributor: 'a@b.example' }))).toEqual({ type: 'invalid_parameter', param: 'trid' });
    expect(parseRequest(TranslationActionRequest, { trid: '2147483647', contributor: 'a@b.example' }).trid).toBe(2147483647);
    expect(fail(() => parseRequest(PhraseQueryRequest, { query: ['a'] }))).toEqual({ type: 'invalid_parameter', param: 'query' });
  });
});
