import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { fileSource, sourcesAt } from '../io/source';
import { readTercNames, TERC_ENTRY } from './teryt-terc.reader';

const PL = resolve(__dirname, '../../fixtures/pl');

async function names(file: string) {
  const errors: string[] = [];
  const map = await readTercNames(await fileSource(resolve(PL, file)), (m) => errors.push(m));
  return { map, errors };
}

describe('TERYT TERC names', () => {
  it('reads the XML GUS publishes exactly as the CSV of the same units', async () => {
    const csv = await names('TERC_Urzedowy_2024-01-01.csv');
    const xml = await names('terc-xml/TERC_Urzedowy_2024-01-01.xml');
    expect(xml.map.size).toBe(11);
    expect([...xml.map].sort()).toEqual([...csv.map].sort());
    expect(xml.map.get('pl_c1418')).toBe('powiat piaseczyński');
    expect(xml.map.get('pl_m141804')).toBe('Piaseczno');
    expect(xml.errors).toEqual([expect.stringMatching(/^TERC_Urzedowy_2024-01-01\.xml line \d+: not a TERC unit \(WOJ "14", POW "6X"/)]);
  });

  // Eight rows of the real GUS file (source in the fixture README): `<POW />`, type ALL.
  it('reads the real TERC XML', async () => {
    const { map, errors } = await names('real/TERC_Urzedowy_2025-11-18-head.xml');
    expect(errors).toEqual([]);
    expect(Object.fromEntries(map)).toEqual({
      pl_r08: 'lubuskie',
      pl_c0805: 'powiat słubicki',
      pl_m080504: 'Rzepin',
      pl_c0807: 'powiat sulęciński',
      pl_m080702: 'Lubniewice',
      pl_m080704: 'Sulęcin',
    });
  });

  // GUS serves the TERC zip with its download page's HTML appended after the archive; yauzl alone
  // refuses it ("Invalid comment length", or no end record in the last 64 KB when the page is long).
  it.each([
    ['a short page', 2_000],
    ['a page longer than a zip comment can be', 200_000],
  ])('reads the TERC zip with %s appended after the archive', async (_what, htmlBytes) => {
    const dir = tempDir('terc-zip-');
    try {
      const zip = join(dir.path, 'TERC_Urzedowy_2025-11-18.zip');
      writeTestZip(zip, [{ name: 'TERC_Urzedowy_2025-11-18.xml', data: readFileSync(resolve(PL, 'real/TERC_Urzedowy_2025-11-18-head.xml')), deflate: true }]);
      const page = '<!DOCTYPE html><html><head><title>TERYT</title></head><body>' + '<p>Pobierz plik</p>'.repeat(htmlBytes / 18) + '</body></html>\n';
      appendFileSync(zip, page);
      const names_: string[] = [];
      const errors: string[] = [];
      let map = new Map<string, string>();
      // An entry is read while the zip is open (during the iteration), as the PL importer does.
      for await (const f of sourcesAt(zip, TERC_ENTRY)) {
        names_.push(f.name);
        map = await readTercNames(f, (m) => errors.push(m));
      }
      expect(names_).toEqual(['TERC_Urzedowy_2025-11-18.xml']);
      expect(errors).toEqual([]);
      expect(map.size).toBe(6);
      expect([...map].sort()).toEqual([...(await names('real/TERC_Urzedowy_2025-11-18-head.xml')).map].sort());
      // A zip cut short is still refused (its end record is gone), not read as empty.
      truncateSync(zip, 200);
      await expect((async () => {
        for await (const f of sourcesAt(zip, TERC_ENTRY)) void f;
      })()).rejects.toThrow(/signature not found|comment length/i);
    } finally {
      dir.remove();
    }
  });

  // Rows as in a published TERC XML of 2013 (see the fixture README): `NAZDOD`, and the empty
  // codes written as elements holding a line break and indentation.
  it('reads the older XML: NAZDOD and white-space-only codes', async () => {
    const { map, errors } = await names('terc-xml/TERC_2013-01-01.xml');
    expect(errors).toEqual([]);
    expect(Object.fromEntries(map)).toEqual({ pl_r02: 'dolnośląskie', pl_c0201: 'powiat bolesławiecki', pl_m020101: 'Bolesławiec' });
  });

  it('knows the TERC members of a zip or folder, in either form, and refuses another TERYT table', async () => {
    expect(['TERC_Urzedowy_2024-01-01.csv', 'x/TERC_Adresowy_2024-01-01.xml'].every((n) => TERC_ENTRY.test(n))).toBe(true);
    expect(TERC_ENTRY.test('PRG-punkty_adresowe-2021-14.gml')).toBe(false);
    const dir = tempDir('terc-');
    const simc = join(dir.path, 'TERC-but-SIMC.xml');
    writeFileSync(simc, '<teryt><catalog name="SIMC"><row><WOJ>02</WOJ><POW>01</POW><GMI>03</GMI><RODZ_GMI>2</RODZ_GMI><NAZWA>Osła</NAZWA><SYM>0186450</SYM></row></catalog></teryt>');
    const errors: string[] = [];
    expect((await readTercNames(await fileSource(simc), (m) => errors.push(m))).size).toBe(0);
    dir.remove();
    expect(errors).toEqual([expect.stringMatching(/TERC-but-SIMC\.xml: not a TERC table/)]);
  });
});
