import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { describeWithData, sharedData } from '@lookup/shared/testing';
import { RegisterChange, readRegisterChanges } from './sk-register-xml.reader';

const FIXTURE = resolve(__dirname, '../../fixtures/sk/DavkaInit-catalogue.xml');

async function collect(it: AsyncIterable<RegisterChange>): Promise<RegisterChange[]> {
  const out: RegisterChange[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const batch = (type: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<ns0:register xmlns:ns0="http://www.minv.sk/ra"><type>${type}</type><count>1</count>${body}</ns0:register>`;

describe('readRegisterChanges on the fixture', () => {
  let recs: RegisterChange[];
  beforeAll(async () => {
    recs = await collect(readRegisterChanges(FIXTURE));
  });

  it('reads every record of every register in the change-service envelope', () => {
    const byType = (t: string) => recs.filter((r) => r.type === t).length;
    expect([byType('REGION'), byType('COUNTY'), byType('MUNICIPALITY')]).toEqual([6, 7, 18]);
    expect(recs.every((r) => r.source === 'DavkaInit-catalogue.xml')).toBe(true);
  });

  it('lifts the common fields, the codelist item and the parent identifiers', () => {
    const bratislava = recs.filter((r) => r.type === 'REGION' && r.objectId === '2');
    expect(bratislava.map((r) => [r.versionId, r.itemCode, r.validTo ?? null])).toEqual([
      [2, '1', '2015-10-01T10:11:53+02:00'],
      [3000000, 'SK010', null],
    ]);
    const renamed = recs.find((r) => r.objectId === '5007' && r.operation === 'UPDATE')!;
    expect(renamed).toEqual({
      type: 'MUNICIPALITY',
      operation: 'UPDATE',
      objectId: '5007',
      versionId: 5240990,
      createdReason: 'CORRECT',
      validFrom: '2016-06-03T10:53:55.688',
      validTo: '3000-12-31T23:59:59.0',
      effectiveDate: '2016-06-01',
      itemCode: 'SK0315510734',
      itemName: 'Liptovský Ján',
      parents: { countyIdentifier: '38' },
      fields: {
        changeId: expect.any(String),
        changedAt: '2016-06-03T10:53:55.775',
        'Municipality.Codelist.CodelistCode': 'CL000025',
        status: 'MUNICIPALITY',
      },
      source: 'DavkaInit-catalogue.xml',
    });
    expect(recs.find((r) => r.objectId === '5011')!.itemCode).toBeUndefined();
  });

  it('parses only the wanted types', async () => {
    const counties = await collect(readRegisterChanges(FIXTURE, { types: ['COUNTY'] }));
    expect(counties.map((r) => r.itemName)).toEqual([
      'Neznámy', 'Bratislava I', 'Malacky', 'Žilina', 'Liptovský Mikuláš', 'Banská Bystrica', 'Zvolen',
    ]);
    expect(counties.find((r) => r.objectId === '12')!.parents).toEqual({ regionIdentifier: '2' });
  });
});

describe('readRegisterChanges on streams', () => {
  it('keeps attributes and nested leaves of other record types as fields', async () => {
    const xml = batch(
      'DISTRICT',
      `<districtChange><databaseOperation>INSERT</databaseOperation><objectId>4764</objectId><versionId>7</versionId>
       <District UniqueNumbering="false"><Codelist><CodelistCode>CL010141</CodelistCode><CodelistItem>
       <ItemCode>219755</ItemCode><ItemName><![CDATA[Nivy]]></ItemName></CodelistItem></Codelist></District>
       <municipalityIdentifier>92</municipalityIdentifier></districtChange>`,
    );
    const [rec] = await collect(readRegisterChanges(Readable.from([xml])));
    expect(rec).toMatchObject({
      type: 'DISTRICT', itemCode: '219755', itemName: 'Nivy', versionId: 7,
      parents: { municipalityIdentifier: '92' },
      fields: { 'District@UniqueNumbering': 'false', 'District.Codelist.CodelistCode': 'CL010141' },
    });
  });

  it('abandons a single-type batch of an unwanted type right after <type>', async () => {
    // Everything after <type> is broken: it is never parsed, so no error.
    const xml = batch('STREET_NAME', '<streetNameChange><objectId>1</objectId><<< not xml');
    expect(await collect(readRegisterChanges(Readable.from([xml]), { types: ['REGION'] }))).toEqual([]);
    await expect(collect(readRegisterChanges(Readable.from([xml])))).rejects.toThrow('stream:');
  });

  it('rejects a record without objectId or versionId', async () => {
    const xml = batch('REGION', '<regionChange><databaseOperation>INSERT</databaseOperation><objectId>1</objectId></regionChange>');
    await expect(collect(readRegisterChanges(Readable.from([xml])))).rejects.toThrow('lacks objectId, versionId');
  });
});

describeWithData([sharedData('sk/davky.zip')], 'readRegisterChanges on the real davky.zip', () => {
  it('reads the catalogue batches and skips the big ones by <type>', async () => {
    const started = Date.now();
    const counts: Record<string, number> = {};
    const sources = new Set<string>();
    for await (const r of readRegisterChanges(sharedData('sk/davky.zip'), { types: ['REGION', 'COUNTY', 'MUNICIPALITY'] })) {
      counts[r.type] = (counts[r.type] ?? 0) + 1;
      sources.add(r.source);
    }
    expect(counts).toEqual({ REGION: 19, COUNTY: 82, MUNICIPALITY: 3011 });
    // Each record names the zip the user gave and its entry, so a message about it says where to look.
    expect([...sources].sort()).toEqual(['davky.zip/DavkaInit_20151009-01.xml', 'davky.zip/DavkaInit_20151009-02.xml', 'davky.zip/DavkaInit_20151009-03.xml']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
