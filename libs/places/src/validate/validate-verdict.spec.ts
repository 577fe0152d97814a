import { parseRequest, Place, PlaceValidateRequest } from '@lookup/contracts';
import { searchFixtureDocs } from '../search/testing/search-fixtures';
import { toSearchPlace } from '../search/place-result.mapper';
import { readInput } from './validate-input';
import { decideValidation } from './validate-verdict';

/** The verdict logic alone: typed addresses against the fixture addresses as the search returns them. */
describe('validation verdict', () => {
  const all: Place[] = searchFixtureDocs().filter((d) => d.object === 'address').map((d) => toSearchPlace(d));
  const decide = (params: Record<string, unknown>, limit = 7) => decideValidation(readInput(parseRequest(PlaceValidateRequest, params)), all, limit);
  const LIHOVARSKA = 'cz_a21600001';

  it('is exact for the address as the register writes it, whole or in parts', () => {
    for (const params of [
      { query: 'Lihovarská 79/22a, 746 01 Opava' },
      { query: 'lihovarska 79/22A opava 74601' },
      { street: 'Lihovarská', street_number: '79', building_number: '22a', municipality: 'Opava', postal_code: '746 01' },
      { query: 'Lihovarská 79/22a', municipality: 'Opava', postal_code: '' },
      { street: 'Lihovarská 79/22a', municipality: 'Opava' },
    ]) {
      const v = decide(params);
      expect([v.verdict, v.status, v.place?.place_id, v.corrections, v.candidates]).toEqual(['exact', 'valid', LIHOVARSKA, [], []]);
    }
  });

  it('takes the postal code\'s post office town only typed whole, and not with another code', () => {
    // An invented office of several words for 747 41, to tell its whole name from a word of it.
    const office = (p: Place) => (p.postal_code === '747 41' ? 'Hradec nad Moravicí' : null);
    const v = (params: Record<string, unknown>) => decideValidation(readInput(parseRequest(PlaceValidateRequest, params)), all, 7, office);
    expect(v({ query: 'Cihelní 265, 747 41 Hradec nad Moravicí' })).toMatchObject({ verdict: 'exact', corrections: [] });
    expect(v({ query: 'Cihelní 265', municipality: 'Hradec nad Moravicí', postal_code: '747 41' })).toMatchObject({ verdict: 'exact', corrections: [] });
    expect(v({ query: 'Cihelní 265, 747 41 Hradec' })).toMatchObject({ verdict: 'corrected', corrections: [{ field: 'municipality', given: 'Hradec', value: 'Branka u Opavy' }] });
    expect(v({ query: 'Cihelní 265', municipality: 'Hradec', postal_code: '747 41' })).toMatchObject({ verdict: 'corrected' });
    // Without a code: the office of the address's own code (the service reads it for each candidate).
    expect(v({ query: 'Cihelní 265, Hradec nad Moravicí' })).toMatchObject({ verdict: 'exact', corrections: [] });
    expect(v({ query: 'Cihelní 265, Hradec' }).verdict).toBe('not_found');
    // Another code typed: the office does not vouch for the town, and a wrong code with a wrong town is two errors.
    expect(v({ query: 'Cihelní 265, 747 99 Hradec nad Moravicí' }).verdict).toBe('not_found');
  });

  it('reads villages without streets and evidence numbers', () => {
    expect(decide({ query: 'Rančířov 86' })).toMatchObject({ verdict: 'exact', place: { place_id: 'cz_a1019' } });
    expect(decide({ query: 'Podvihov č. ev. 59, 747 06 Opava' })).toMatchObject({ verdict: 'exact', place: { place_id: 'cz_a1009' } });
  });

  it('takes the typed town as the name of a village part only where they share it', () => {
    expect(decide({ query: 'Podvihov 12', municipality: 'Opava' })).toMatchObject({ verdict: 'exact', place: { place_id: 'cz_a1010' } });
    expect(decide({ street_number: '86', municipality: 'Rančířov' })).toMatchObject({ verdict: 'exact', place: { place_id: 'cz_a1019' } });
    // A town of two names: its part named like one of them is not named by the whole (Straškov-Vodochody).
    const straskov = toSearchPlace({ ...searchFixtureDocs().find((d) => d.place_id === 'cz_a1010')!, place_id: 'cz_a1010s', district: 'Straškov', municipality: 'Straškov-Vodochody' });
    const vodochody = toSearchPlace({ ...searchFixtureDocs().find((d) => d.place_id === 'cz_a1010')!, place_id: 'cz_a1010v', district: 'Vodochody', municipality: 'Straškov-Vodochody' });
    const twin = decideValidation(readInput(parseRequest(PlaceValidateRequest, { query: 'Vodochody 12', municipality: 'Straškov-Vodochody' })), [straskov, vodochody], 7);
    expect([twin.verdict, twin.place?.place_id]).toEqual(['exact', 'cz_a1010v']);
    // Opava has no part called Opava: the town alone names no address there.
    expect(decide({ query: 'Opava 12', municipality: 'Opava' }).verdict).toBe('not_found');
  });

  it('prefers, among equally corrected candidates, the one closest to what was typed', () => {
    const podvihov = searchFixtureDocs().find((d) => d.place_id === 'cz_a1010')!;
    const longer = toSearchPlace({ ...podvihov, place_id: 'cz_a1010x', district: 'Podvihov Horní' });
    const v = decideValidation(readInput(parseRequest(PlaceValidateRequest, { query: 'Podvihov 12', municipality: 'Opava' })), [longer, ...all], 7);
    expect([v.verdict, v.place?.place_id]).toEqual(['exact', 'cz_a1010']);
    const alone = decideValidation(readInput(parseRequest(PlaceValidateRequest, { query: 'Podvihov Horní 12', municipality: 'Opava' })), [longer, ...all], 7);
    expect([alone.verdict, alone.place?.place_id]).toEqual(['exact', 'cz_a1010x']);
  });

  it('counts a word for the field it matches exactly, not for a near one elsewhere', () => {
    const base = searchFixtureDocs().find((d) => d.place_id === 'cz_a1010')!;
    const part = (id: string, district: string) => toSearchPlace({ ...base, place_id: id, district, municipality: 'Velké Petrovice', postal_code: '54954' });
    const village = [part('cz_p1', 'Petrovičky'), part('cz_p2', 'Petrovice')];
    const v = decideValidation(readInput(parseRequest(PlaceValidateRequest, { query: 'Petrovice 12', municipality: 'Velké Petrovice', postal_code: '410 02' })), village, 7);
    expect([v.verdict, v.place?.place_id]).toEqual(['corrected', 'cz_p2']);
    // The part named like its town loses to the part named as typed (`Osová 12` in Osová Bítýška).
    const osova = [part('cz_o1', 'Osová Bítýška'), part('cz_o2', 'Osová')].map((p) => ({ ...p, municipality: 'Osová Bítýška' }));
    const o = decideValidation(readInput(parseRequest(PlaceValidateRequest, { query: 'Osová 12', municipality: 'Osová Bítýška' })), osova, 7);
    expect([o.verdict, o.place?.place_id]).toEqual(['exact', 'cz_o2']);
  });

  it('corrects a postal code that does not belong to the address', () => {
    const v = decide({ query: 'Lihovarská 79/22a', municipality: 'Opava', postal_code: '746 02' });
    expect([v.verdict, v.status, v.place?.place_id]).toEqual(['corrected', 'unsure', LIHOVARSKA]);
    expect(v.corrections).toEqual([{ field: 'postal_code', given: '746 02', value: '746 01' }]);
  });

  it('corrects a misspelt municipality and a misspelt street', () => {
    expect(decide({ query: 'Lihovarská 79/22a', municipality: 'Opvaa' })).toMatchObject({
      verdict: 'corrected',
      place: { place_id: LIHOVARSKA },
      corrections: [{ field: 'municipality', given: 'Opvaa', value: 'Opava' }],
    });
    expect(decide({ query: 'Lihovarka 79/22a Opava' }).corrections).toEqual([{ field: 'street', given: 'Lihovarka', value: 'Lihovarská' }]);
  });

  it('completes a missing orientation number (and a missing conscription number)', () => {
    expect(decide({ query: 'Lihovarská 79, Opava' })).toMatchObject({ verdict: 'corrected', corrections: [{ field: 'building_number', given: null, value: '22a' }] });
    expect(decide({ query: 'Lihovarská 22a, Opava' })).toMatchObject({ verdict: 'corrected', corrections: [{ field: 'street_number', given: null, value: '79' }] });
  });

  it('says not_found for a number the street does not have, or a street the town does not have', () => {
    expect(decide({ query: 'Lihovarská 999, Opava' })).toMatchObject({ verdict: 'not_found', status: 'invalid', place: null, candidates: [] });
    expect(decide({ query: 'Lihovarská 79/23, Opava' }).verdict).toBe('not_found');
    expect(decide({ query: 'Lihovarská 79/22a', municipality: 'Olomouc' }).verdict).toBe('not_found');
  });

  it('trusts the postal code over a wrong town name', () => {
    expect(decide({ query: 'Lihovarská 79/22a', municipality: 'Olomouc', postal_code: '74601' })).toMatchObject({
      verdict: 'corrected',
      corrections: [{ field: 'municipality', given: 'Olomouc', value: 'Opava' }],
    });
  });

  it('is ambiguous when equally good addresses remain, with up to limit candidates', () => {
    const many = decide({ query: 'Nádražní 1' });
    expect([many.verdict, many.status, many.place]).toEqual(['ambiguous', 'many', null]);
    expect(many.candidates.map((p) => p.municipality).sort()).toEqual(['Opava', 'Svitavy']);
    const short = decide({ street: 'Lihovarská', municipality: 'Opava' }, 3);
    expect([short.verdict, short.status, short.candidates.length]).toEqual(['ambiguous', 'insufficient', 3]);
  });

  it('adds the town and postal code when neither was typed and the address is unique', () => {
    expect(decide({ query: 'Kijevská 2125/13c' })).toMatchObject({
      verdict: 'corrected',
      corrections: [
        { field: 'municipality', given: null, value: 'Svitavy' },
        { field: 'postal_code', given: null, value: '568 02' },
      ],
    });
  });
});
