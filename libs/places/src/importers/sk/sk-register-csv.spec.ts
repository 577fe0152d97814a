import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { AddressImportReport, skRegisterPlaceDocs } from '../address-import';
import { writeTestZip } from '@lookup/shared/testing';
import { isoRegisterDate, readRegisterSources, registerTypeOfHeader } from './sk-register-csv.reader';

const SK = resolve(__dirname, '../../fixtures/sk');
const CSV_DIR = join(SK, 'csv');
const XML = ['DavkaInit-catalogue.xml', 'DavkaInit-addresses.xml', 'ZmenovaDavka-addresses.xml'].map((f) => join(SK, f));

async function importSk(sources: string[]): Promise<{ docs: PlaceDoc[]; report: AddressImportReport }> {
  let report: AddressImportReport | null = null;
  const docs: PlaceDoc[] = [];
  for await (const b of skRegisterPlaceDocs({ sources, onReport: (r) => (report = r) })) docs.push(...b);
  return { docs, report: report! };
}

describe('Register adries CSV tables', () => {
  it('tells the register from the header columns', () => {
    expect(registerTypeOfHeader(['changeId', 'objectId', 'versionId', 'buildingNumber', 'buildingIndex', 'propertyRegistrationNumberIdentifier'])).toBe('BUILDING_NUMBER');
    expect(registerTypeOfHeader(['objectid', 'propertyregistrationnumber', 'municipalityidentifier'])).toBe('PROPERTY_REGISTRATION_NUMBER');
    expect(registerTypeOfHeader(['objectId', 'streetName', 'municipalityIdentifiers'])).toBe('STREET_NAME');
    expect(registerTypeOfHeader(['a', 'b'])).toBeNull();
  });

  it('reads dates written `d. m. yyyy h:mm:ss` as well as ISO', () => {
    expect(isoRegisterDate('31. 12. 3000 0:00:00')).toBe('3000-12-31T00:00:00');
    expect(isoRegisterDate('1. 5. 2012 1:59:59')).toBe('2012-05-01T01:59:59');
    expect(isoRegisterDate('2016-06-03T10:53:53.991')).toBe('2016-06-03T10:53:53.991');
  });

  it('turns rows into the same records the XML batches give (codelist item, parents, leaves)', async () => {
    const recs = [];
    for await (const r of readRegisterSources(join(CSV_DIR, 'register-vchodov.csv'), null, () => undefined)) recs.push(r);
    expect(recs[0]).toEqual({
      type: 'BUILDING_NUMBER', operation: 'INSERT', objectId: '10001', versionId: 401, createdReason: 'IMPORT', effectiveDate: '1000-01-01',
      parents: { propertyRegistrationNumberIdentifier: '9001', streetNameIdentifier: '8001' },
      fields: { BuildingNumber: '3', BuildingIndex: '100001', PostalCode: '01001', 'AddressPoint.BLH.AxisB': '49.2231000', 'AddressPoint.BLH.AxisL': '18.7394000' },
      source: 'register-vchodov.csv',
    });
    const munis = [];
    for await (const r of readRegisterSources(join(CSV_DIR, 'register-obci.csv'), ['MUNICIPALITY'], () => undefined)) munis.push(r);
    expect(munis.find((m) => m.objectId === '5004')).toMatchObject({ itemCode: 'SK031B517402', itemName: 'Žilina', parents: { countyIdentifier: '33' } });
  });

  it('gives the same documents from the CSV tables as from the XML batches, from a folder or a zip', async () => {
    const fromXml = await importSk(XML);
    const fromCsv = await importSk([CSV_DIR]);
    expect(fromCsv.docs.filter((d) => d.object === 'address')).toHaveLength(6);
    expect(fromCsv.docs).toEqual(fromXml.docs);
    const tmp = tempDir();
    try {
      const zip = join(tmp.path, 'register-adries.zip');
      const names = ['register-krajov', 'register-okresov', 'register-obci', 'register-casti-obci', 'register-ulic', 'register-budov', 'register-vchodov'];
      writeTestZip(zip, names.map((n) => ({ name: `${n}.csv`, data: readFileSync(join(CSV_DIR, `${n}.csv`)), deflate: true })));
      expect((await importSk([zip])).docs).toEqual(fromXml.docs);
    } finally {
      tmp.remove();
    }
  });

  it('accepts `;` and lowercased headers, and reports a broken row with its line', async () => {
    const tmp = tempDir();
    try {
      const src = readFileSync(join(CSV_DIR, 'register-vchodov.csv'), 'utf8').split('\n');
      const semicolon = [src[0]!.toLowerCase(), ...src.slice(1)].map((l) => l.replace(/,/g, ';'));
      semicolon.splice(2, 0, 'x;y');
      for (const f of ['register-krajov', 'register-okresov', 'register-obci', 'register-casti-obci', 'register-ulic', 'register-budov']) {
        writeFileSync(join(tmp.path, `${f}.csv`), readFileSync(join(CSV_DIR, `${f}.csv`)));
      }
      writeFileSync(join(tmp.path, 'register-vchodov.csv'), semicolon.join('\n'));
      const { docs, report } = await importSk([tmp.path]);
      expect(docs).toEqual((await importSk(XML)).docs);
      // A folder's file is named after the folder too (what the user gave), as a zip's entry after the zip.
      expect(report.errors).toContain(`${basename(tmp.path)}/register-vchodov.csv line 3: 2 fields where the header has 17`);
    } finally {
      tmp.remove();
    }
  });

  it('refuses a CSV that is no register table', async () => {
    const tmp = tempDir();
    try {
      writeFileSync(join(tmp.path, 'other.csv'), 'a,b\n1,2\n');
      await expect(importSk([join(tmp.path, 'other.csv')])).rejects.toThrow('other.csv: not a Register adries CSV table');
    } finally {
      tmp.remove();
    }
  });
});
