import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { tempDir, writeTestZip } from '@lookup/shared/testing';
import { emptyDoc } from '../../domain/place.doc';
import { resolveVfrAddress } from './ruian-vfr';
import { readVfrRecords, VfrAddress, VfrRecord, VfrRecordError } from './ruian-vfr.reader';
import { RuianVfrState } from './ruian-vfr.state';

const VFR = resolve(__dirname, '../../fixtures/ruian-vfr/20240102_ST_ZKSH_fixture.xml');

async function readAll(input: string | Readable): Promise<{ records: VfrRecord[]; errors: VfrRecordError[] }> {
  const records: VfrRecord[] = [];
  const errors: VfrRecordError[] = [];
  for await (const r of readVfrRecords(input, (e) => errors.push(e))) records.push(r);
  return { records, errors };
}

describe('readVfrRecords (RUIAN VFR change files)', () => {
  it('reads addresses, buildings, named units and ended elements with their transaction ids', async () => {
    const { records, errors } = await readAll(VFR);
    expect(records.map((r) => `${r.type}:${r.kod}`)).toEqual([
      'municipality:500011', 'mop:86', 'momc:500208', 'part:195901', 'part:119806', 'part:400637', 'street:796999', 'street:455431',
      'building:1009', 'building:2012', 'building:3061',
      'address:4192583', 'address:4192648', 'address:5000004', 'address:21700002', 'address:5000003', 'address:4192699',
      'ended:4192591', 'ended:1003',
    ]);
    const byKod = new Map(records.map((r) => [`${r.type}:${r.kod}`, r]));
    expect(byKod.get('address:4192648')).toEqual({
      type: 'address', kod: '4192648', tx: 9900121, buildingKod: '1009', streetKod: '796999', houseNumber: '9', orientation: '3b',
      postalCode: '76311', x: 1166580.25, y: 515480.5, ended: false,
    });
    expect(byKod.get('address:5000003')).toMatchObject({ ended: true, tx: 9900124 });
    expect(byKod.get('building:3061')).toEqual({ type: 'building', kod: '3061', tx: 9900113, kindCode: '1', partKod: '400637', momcKod: '500208', ended: false });
    expect(byKod.get('momc:500208')).toMatchObject({ name: 'Praha 8', parentKod: '86' });
    expect(byKod.get('street:796999')).toMatchObject({ name: 'Nová', parentKod: '500011' });
    expect(byKod.get('ended:4192591')).toEqual({ type: 'ended', elementType: 'AD', kod: '4192591', tx: 9900130 });
    // A bad value skips the record with its line and reason; the reading goes on.
    expect(errors).toEqual([{ source: '20240102_ST_ZKSH_fixture.xml', line: expect.any(Number), message: 'AdresniMisto 4192700: Psc "7631" is not five digits' }]);
  });

  it('reads the zipped daily file (.xml.zip) the same as the plain one', async () => {
    const dir = tempDir();
    try {
      const zip = join(dir.path, '20240102_ST_ZKSH.xml.zip');
      writeTestZip(zip, [{ name: '20240102_ST_ZKSH.xml', data: readFileSync(VFR), deflate: true }]);
      const plain = await readAll(VFR);
      const zipped = await readAll(zip);
      expect(zipped.records).toEqual(plain.records);
      expect(zipped.errors.map((e) => e.message)).toEqual(plain.errors.map((e) => e.message));
    } finally {
      dir.remove();
    }
  });

  it('streams: records come out while the file is still being read (memory does not grow with the file)', async () => {
    const head = readFileSync(VFR, 'utf8').split('<vf:Data>')[0] + '<vf:Data><vf:AdresniMista>';
    const point = (i: number) =>
      `<vf:AdresniMisto><ami:Kod>${9000000 + i}</ami:Kod><ami:CisloDomovni>${i}</ami:CisloDomovni><ami:Psc>76311</ami:Psc>` +
      `<ami:StavebniObjekt><soi:Kod>1009</soi:Kod></ami:StavebniObjekt><ami:IdTransakce>${i}</ami:IdTransakce></vf:AdresniMisto>`;
    const chunks = 2000;
    let produced = 0;
    async function* file(): AsyncGenerator<Buffer> {
      yield Buffer.from(head);
      for (let c = 0; c < chunks; c++, produced++) yield Buffer.from(Array.from({ length: 10 }, (_, k) => point(c * 10 + k)).join(''));
      yield Buffer.from('</vf:AdresniMista></vf:Data></vf:VymennyFormat>');
    }
    let count = 0;
    let producedAtFirst = -1;
    for await (const r of readVfrRecords(Readable.from(file()), () => undefined)) {
      if (count++ === 0) producedAtFirst = produced;
      expect(r.type).toBe('address');
    }
    expect(count).toBe(chunks * 10);
    expect(producedAtFirst).toBeLessThan(chunks / 10);
  });

  it('fails on a truncated file, naming it', async () => {
    const text = readFileSync(VFR, 'utf8');
    const cut = text.slice(0, text.indexOf('<vf:AdresniMisto gml:id="AD.5000004">') + 80);
    await expect(readAll(Readable.from([Buffer.from(cut)]))).rejects.toThrow(/^stream: .*(unclosed|end)/i);
  });

  it('refuses XML that is not a VFR file', async () => {
    await expect(readAll(Readable.from([Buffer.from('<?xml version="1.0"?><register><type>REGION</type></register>')]))).rejects.toThrow(/not vf:VymennyFormat/);
    await expect(readAll(Readable.from([Buffer.from('')]))).rejects.toThrow();
  });

  it('rejects a definition point outside the S-JTSK range', async () => {
    const text = readFileSync(VFR, 'utf8').replace('-515480.50 -1166580.25', '-1166580.25 -515480.50');
    const { records, errors } = await readAll(Readable.from([Buffer.from(text)]));
    expect(records.some((r) => r.type === 'address' && r.kod === '4192648')).toBe(false);
    expect(errors.map((e) => e.message)).toContain('AdresniMisto 4192648: gml:pos "-1166580.25 -515480.50" is not an S-JTSK (EPSG:5514) point in the Czech range');
  });
});

describe('resolveVfrAddress', () => {
  const dir = tempDir();
  const state = new RuianVfrState(join(dir.path, 'state.sqlite')).open();
  const point: VfrAddress = { type: 'address', kod: '1', tx: 5, buildingKod: '77', streetKod: null, houseNumber: '4', orientation: null, postalCode: '76311', x: null, y: null, ended: false };
  afterAll(() => {
    state.close();
    dir.remove();
  });

  it('takes what the state lacks from the stored document and says which fields', () => {
    const stored = { ...emptyDoc('CZ', 'address', 'cz_a1', 'x'), municipality_id: 'cz_m500011', municipality: 'Želechovice nad Dřevnicí', district: 'Želechovice nad Dřevnicí', number_kind: 'ce' as const };
    const r = resolveVfrAddress(point, state, stored);
    expect(r).toEqual({
      fromStore: ['number_kind', 'district', 'municipality_id', 'city_district'],
      row: expect.objectContaining({ kind: 'ce', municipalityCode: '500011', municipalityName: 'Želechovice nad Dřevnicí', partName: 'Želechovice nad Dřevnicí', momcName: null }),
    });
    expect(resolveVfrAddress(point, state, null)).toEqual({ error: expect.stringMatching(/^AdresniMisto 1: StavebniObjekt 77 \(its type\) is unknown \(.*no document cz_a1\)$/) });
  });

  it('refuses a building type that carries no house number', () => {
    state.begin();
    state.stage({ type: 'building', kod: '77', tx: 3, kindCode: '3', partKod: null, momcKod: null, ended: false });
    expect(resolveVfrAddress(point, state, null)).toEqual({ error: 'AdresniMisto 1: StavebniObjekt 77 has type 3, neither č.p. (1) nor č.ev. (2)' });
    state.rollback();
  });
});
