import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { canonicalWords, docTokens, docView } from './doc-tokens';

function addr(country: PlaceDoc['country'], street: string, number: string, fields: Partial<PlaceDoc> = {}): PlaceDoc {
  return { ...emptyDoc(country, 'address', `${country.toLowerCase()}_a1`, `${street} ${number}`), street, building_number: number, municipality: 'X', ...fields };
}

describe('docTokens', () => {
  it('indexes German street words under one form (Hauptstr., Hauptstraße -> hauptstrasse)', () => {
    expect(docTokens(addr('AT', 'Hauptstr.', '12/3/5', { municipality: 'Wien', postal_code: '1010' }))).toEqual(
      expect.arrayContaining(['hauptstrasse', 'hauptstr', '12', '3', '5', '1010', 'wien']),
    );
    expect(docTokens(addr('AT', 'Hauptstraße', '1'))).toContain('hauptstrasse');
    expect(docTokens(addr('AT', 'Wiener Str.', '1'))).toEqual(expect.arrayContaining(['wiener', 'strasse']));
    expect(docTokens(addr('AT', 'Schulg.', '1'))).toContain('schulgasse');
    expect(docTokens(addr('AT', 'Karlspl.', '1'))).toContain('karlsplatz');
  });

  it('indexes a German name joined to the street word after it, in German text only', () => {
    expect(docTokens(addr('LI', 'Feldkircher Strasse', '3', { municipality: 'Schaan' }))).toEqual(expect.arrayContaining(['feldkircher', 'strasse', 'feldkircherstrasse']));
    expect(docTokens(addr('AT', 'Schönbrunner Str.', '4'))).toEqual(expect.arrayContaining(['schonbrunnerstrasse', 'schoenbrunnerstrasse']));
    // Not a street word after it, nor two street words, nor after a short word, nor in Czech text.
    expect(docTokens(addr('AT', 'Am Platz', '1'))).not.toContain('amplatz');
    expect(docTokens(addr('AT', 'Wiener Neustadt', '1'))).not.toContain('wienerneustadt');
    expect(docTokens(addr('CH', 'Weg Gasse', '1'))).not.toContain('weggasse');
    expect(docTokens(addr('CZ', 'Nova Ulice', '1'))).not.toContain('novaulice');
  });

  it('indexes German St. also as Sankt and Sankt also as St, in German text only', () => {
    expect(docTokens(addr('AT', 'St. Ulrichs-Platz', '2', { municipality: 'Wien' }))).toEqual(expect.arrayContaining(['st', 'sankt', 'ulrichs', 'platz']));
    expect(docTokens(addr('CH', 'Sankt Jakob-Strasse', '1', { municipality: 'St. Gallen' }))).toEqual(expect.arrayContaining(['sankt', 'st', 'gallen']));
    expect(docTokens(addr('CZ', 'St. Nádražní', '1'))).not.toContain('sankt');
  });

  it('indexes umlauts folded and transliterated, and German ue also contracted', () => {
    expect(docTokens(addr('CH', 'Müllerstrasse', '1', { municipality: 'Zürich' }))).toEqual(
      expect.arrayContaining(['mullerstrasse', 'muellerstrasse', 'zurich', 'zuerich']),
    );
    expect(docTokens(addr('LI', 'Muehleholzstrasse', '1'))).toEqual(expect.arrayContaining(['muehleholzstrasse', 'muhleholzstrasse']));
    // Not in Czech text: Michaelská is not Michalská.
    expect(docTokens(addr('CZ', 'Michaelská', '1'))).not.toContain('michalska');
  });

  it('indexes the Polish TERYT prefixes as written and as whole words', () => {
    expect(docTokens(addr('PL', 'al. Jana Pawła II', '5'))).toEqual(expect.arrayContaining(['al', 'aleja', 'aleje', 'jana', 'pawla', 'ii']));
    expect(docTokens(addr('PL', 'pl. Grunwaldzki', '3'))).toEqual(expect.arrayContaining(['pl', 'plac', 'grunwaldzki']));
    expect(docTokens(addr('PL', 'os. Tysiąclecia', '3'))).toEqual(expect.arrayContaining(['os', 'osiedle', 'tysiaclecia']));
    expect(docTokens(addr('PL', 'ul. Marszałkowska', '3', { postal_code: '00950' }))).toEqual(expect.arrayContaining(['ul', 'marszalkowska', '00950']));
  });

  it('keeps the Czech forms: the whole word first, the written abbreviation too', () => {
    const [fugner, nam] = canonicalWords('Fügnerovo nám.');
    expect(fugner.forms).toEqual(['fugnerovo', 'fuegnerovo']);
    expect(nam.forms).toEqual(['namesti', 'nam']);
    expect(nam.folded).toBe('namesti');
  });
});

describe('docView', () => {
  it('splits whole PL/AT/CH/LI house numbers into parts, not CZ/SK ones', () => {
    expect(docView(addr('AT', 'Hauptstraße', '12/3/5')).numberParts).toEqual(['12', '3', '5']);
    expect(docView(addr('PL', 'ul. Polna', '1-3')).numberParts).toEqual(['1', '3']);
    expect(docView(addr('CH', 'Bahnhofstrasse', '1a')).numberParts).toEqual(['1a']);
    expect(docView(addr('CH', 'Bahnhofstrasse', '31.1')).numberParts).toEqual(['31', '1']);
    expect(docView(addr('SK', 'Hlavná', '7A')).numberParts).toBeNull();
    expect(docView(addr('CZ', 'Lihovarská', '22a', { street_number: '79' })).numberParts).toBeNull();
  });
});
