import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { parseQuery } from './query-parser';
import { AROUND_MAX_BONUS, rankDocs, SCORE } from './ranking';
import { ADDRESSES_PER_POSTAL_CODE } from '../importers/catalogue.types';

function addr(id: string, street: string, sn: string, bn: string | null = null, at: [number, number] = [49.9, 17.9]): PlaceDoc {
  return { ...emptyDoc('CZ', 'address', id, `${street} ${sn}`), street, municipality: 'Opava', district: 'Předměstí', street_number: sn, building_number: bn, number_kind: 'cp', postal_code: '74601', lat: at[0], lng: at[1] };
}

const ids = (query: string, docs: PlaceDoc[], around?: { lat: number; lng: number }) => rankDocs(parseQuery(query).tokens, docs, { around }).map((r) => r.doc.place_id);

/** A municipality with its address points in the CZ register (2023-12-31) as weight. */
const town = (name: string, weight: number): PlaceDoc => ({ ...emptyDoc('CZ', 'municipality', `cz_m${name}`, name), municipality: name, weight });
const towns = (query: string, docs: PlaceDoc[]) => rankDocs(parseQuery(query).tokens, docs, { towns: true }).map((r) => r.doc.name);

describe('ranking', () => {
  it('chooses among the towns a typed start fits by their size, those whose name starts with it first (towns)', () => {
    const hrad = [town('Dívčí Hrad', 79), town('Hradec', 408), town('Hradec', 119), town('Hradec Králové', 16197)];
    expect(towns('Hrad', hrad)).toEqual(['Hradec Králové', 'Hradec', 'Hradec', 'Dívčí Hrad']);
    // Without the option (an address search), the whole word Hrad still wins.
    expect(rankDocs(parseQuery('Hrad').tokens, hrad).map((r) => r.doc.name)[0]).toBe('Dívčí Hrad');
    expect(towns('Liber', [town('Libeř', 810), town('Liberk', 475), town('Liberec', 16140)])).toEqual(['Liberec', 'Libeř', 'Liberk']);
    // Praha is missing from the register extract: its 61 postal codes in the PSC list weigh for it (catalogue.loader.ts).
    const pra = [town('Prace', 374), town('Pravy', 61), town('Jílové u Prahy', 2897), town('Praha', 61 * ADDRESSES_PER_POSTAL_CODE)];
    expect(towns('Pra', pra)).toEqual(['Praha', 'Prace', 'Pravy', 'Jílové u Prahy']);
    // A whole name typed as it is written is that town, before a larger one it starts (typed without its diacritics, not).
    expect(towns('Hradec', hrad.slice(1))).toEqual(['Hradec', 'Hradec', 'Hradec Králové']);
    const bohunov = [town('Bohuňovice', 847), town('Bohuňov', 106), town('Bohuňov', 127)];
    expect(towns('Bohuňov', bohunov)).toEqual(['Bohuňov', 'Bohuňov', 'Bohuňovice']);
    expect(towns('Bohunov', bohunov)[0]).toBe('Bohuňovice');
    expect(towns('Ostrov', [town('Ostrá', 478), town('Ostrov', 61), town('Ostrov', 2109)])).toEqual(['Ostrov', 'Ostrov']);
  });

  it('puts an exact number above its prefixes, shorter prefixes first', () => {
    const docs = [addr('cz_a83a', 'Hlavní', '83a'), addr('cz_a83', 'Hlavní', '83'), addr('cz_a8', 'Hlavní', '8')];
    expect(ids('Hlavní 8', docs)).toEqual(['cz_a8', 'cz_a83', 'cz_a83a']);
    expect(ids('Hlavní 83', docs)).toEqual(['cz_a83', 'cz_a83a']);
  });

  it('prefers the number in the position the slash form gives it', () => {
    const docs = [addr('cz_a7-79', 'Hlavní', '7', '79'), addr('cz_a79-7', 'Hlavní', '79', '7')];
    expect(ids('Hlavní 79/7 ', docs)).toEqual(['cz_a79-7', 'cz_a7-79']);
    expect(ids('Hlavní 7/79 ', docs)).toEqual(['cz_a7-79', 'cz_a79-7']);
  });

  it('drops documents missing a query token', () => {
    expect(ids('Hlavní 12 ', [addr('cz_a1', 'Hlavní', '13')])).toEqual([]);
  });

  it('keeps the around_latlng bias below the exact-vs-prefix gap', () => {
    const far = addr('cz_afar', 'Hlavní', '15', null, [50.5, 14.0]);
    const near = addr('cz_anear', 'Hlavní', '153', null, [49.9, 17.9]);
    expect(ids('Hlavní 15', [near, far], { lat: 49.9, lng: 17.9 })).toEqual(['cz_afar', 'cz_anear']);
    // The gap the bias must stay under: exact (10) against the closest prefix (two of three digits).
    expect(AROUND_MAX_BONUS).toBeLessThan(SCORE.exact - (SCORE.prefixBase + SCORE.prefixSpan * (2 / 3)));
    // Among equal text matches, nearer wins.
    const a = addr('cz_aa', 'Hlavní', '1', null, [50.5, 14.0]);
    const b = addr('cz_ab', 'Hlavní', '1', null, [49.91, 17.9]);
    expect(ids('Hlavní 1 ', [a, b], { lat: 49.9, lng: 17.9 })).toEqual(['cz_ab', 'cz_aa']);
    expect(ids('Hlavní 1 ', [b, a], { lat: 50.5, lng: 14.0 })).toEqual(['cz_aa', 'cz_ab']);
  });

  it('reads whole PL/AT/CH/LI numbers part by part, the whole number first', () => {
    const at = (id: string, bn: string): PlaceDoc => ({ ...emptyDoc('AT', 'address', id, `Hauptstraße ${bn}`), street: 'Hauptstraße', municipality: 'Wien', building_number: bn, postal_code: '1010' });
    const docs = [at('at_a1235', '12/3/5'), at('at_a12', '12'), at('at_a140', '140'), at('at_a3', '3')];
    expect(ids('Hauptstraße 12 ', docs)).toEqual(['at_a12', 'at_a1235']);
    expect(ids('Hauptstraße 12/3 ', docs)).toEqual(['at_a1235']);
    expect(ids('Hauptstraße 1', docs)).toEqual(['at_a12', 'at_a1235', 'at_a140']);
    // `3` alone is a house number, and the staircase of 12/3/5 after it.
    expect(ids('Hauptstraße 3 ', docs)).toEqual(['at_a3', 'at_a1235']);
    // The Swiss sub-number `31.1`.
    const ch = [at('ch_a311', '31.1'), at('ch_a31', '31'), at('ch_a1', '1')];
    expect(ids('Hauptstraße 31.1', ch)).toEqual(['ch_a311']);
    expect(ids('Hauptstraße 31 ', ch)).toEqual(['ch_a31', 'ch_a311']);
  });

  it('takes a four-digit number equal to the postal code as an exact match', () => {
    const ch: PlaceDoc = { ...emptyDoc('CH', 'address', 'ch_a1', 'Bahnhofstrasse 1'), street: 'Bahnhofstrasse', municipality: 'Zürich', building_number: '1', postal_code: '8001' };
    const [r] = rankDocs(parseQuery('8001 Zürich').tokens, [ch]);
    expect(r.matches.map((m) => m.how)).toEqual(['exact', 'exact']);
    const cz = addr('cz_a8001', 'Hlavní', '8001');
    expect(rankDocs(parseQuery('8001 ').tokens, [cz])[0].matches[0].how).toBe('exact');
  });

  it('orders ties deterministically', () => {
    const docs = [addr('cz_b', 'Hlavní', '1'), addr('cz_a', 'Hlavní', '1')];
    expect(ids('Hlavní 1 ', docs)).toEqual(['cz_a', 'cz_b']);
  });
});
