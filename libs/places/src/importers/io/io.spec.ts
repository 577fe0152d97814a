import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import * as iconv from 'iconv-lite';
import { describeWithData, sharedData } from '@lookup/shared/testing';
import { csvObjects, csvRecords, parseCsvLine } from './csv';
import { readLines } from './lines';
import { folderFiles, sourcesAt } from './source';
import { zipEntries, zipEntry } from './zip';
import { writeTestZip } from '@lookup/shared/testing';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* lines(...ls: string[]): AsyncGenerator<string> {
  yield* ls;
}

const FIXTURES = resolve(__dirname, '../../fixtures');

describe('readLines', () => {
  it('splits LF and CRLF, drops a BOM, keeps a last line without terminator', async () => {
    const input = Readable.from([Buffer.from('\uFEFFa;b\r\nc', 'utf8'), Buffer.from('d\n\nlast', 'utf8')]);
    expect(await collect(readLines(input))).toEqual(['a;b', 'cd', '', 'last']);
  });

  it('keeps a UTF-8 character whole when a chunk boundary cuts it', async () => {
    const bytes = Buffer.from('Žilina\nKošice\n', 'utf8');
    const input = Readable.from([bytes.subarray(0, 1), bytes.subarray(1, 10), bytes.subarray(10)]);
    expect(await collect(readLines(input))).toEqual(['Žilina', 'Košice']);
  });

  it('decodes windows-1250 (RUIAN CSV)', async () => {
    const bytes = iconv.encode('Kód obce;Název obce\r\n500011;Želechovice nad Dřevnicí\r\n', 'windows-1250');
    expect(bytes.includes(Buffer.from('Ž', 'utf8'))).toBe(false);
    const got = await collect(readLines(Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]), { encoding: 'windows-1250' }));
    expect(got).toEqual(['Kód obce;Název obce', '500011;Želechovice nad Dřevnicí']);
  });

  it('rejects an unknown encoding', async () => {
    await expect(collect(readLines(Readable.from(['x']), { encoding: 'no-such' }))).rejects.toThrow('unknown encoding');
  });
});

describe('csv', () => {
  it('parses quoted fields with delimiters, doubled quotes and empty fields', () => {
    expect(parseCsvLine('1,"Praha, hl. m.","say ""hi""",,x')).toEqual(['1', 'Praha, hl. m.', 'say "hi"', '', 'x']);
    expect(parseCsvLine('a;"b;c";', ';')).toEqual(['a', 'b;c', '']);
    expect(parseCsvLine('ab"c,d')).toEqual(['ab"c', 'd']);
    expect(() => parseCsvLine('"open,x')).toThrow('unclosed');
  });

  it('joins a quoted field that spans lines and reports where records start', async () => {
    const recs = await collect(csvRecords(lines('a,b', '"multi', 'line",z', 'c,d')));
    expect(recs).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['multi\nline', 'z'], line: 2 },
      { fields: ['c', 'd'], line: 4 },
    ]);
    await expect(collect(csvRecords(lines('"never closed')))).rejects.toThrow('line 1');
  });

  it('maps records by header and skips blank lines', async () => {
    const rows = await collect(csvObjects(lines('x, y', '1,2', '', '3')));
    expect(rows).toEqual([
      { row: { x: '1', y: '2' }, line: 2, width: 2, headerWidth: 2 },
      { row: { x: '3', y: '' }, line: 4, width: 1, headerWidth: 2 },
    ]);
  });
});

describe('folders and zips', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lookup-io-'));
    writeTestZip(join(dir, 'batches.zip'), [
      { name: 'CSV/', data: '' },
      { name: 'CSV/b.csv', data: 'b1\nb2\n', deflate: true },
      { name: 'readme.txt', data: 'skip me' },
      { name: 'CSV/a.csv', data: iconv.encode('Dřevnice\n', 'windows-1250'), deflate: true },
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('iterates matching zip entries in zip order and reads each as lines', async () => {
    const got: string[] = [];
    for await (const entry of zipEntries(join(dir, 'batches.zip'), /\.csv$/)) {
      const enc = entry.name.endsWith('a.csv') ? 'windows-1250' : undefined;
      got.push(`${entry.name}:${(await collect(readLines(entry, { encoding: enc }))).join('|')}`);
    }
    expect(got).toEqual(['CSV/b.csv:b1|b2', 'CSV/a.csv:Dřevnice']);
  });

  it('opens one named entry and fails clearly on a missing one', async () => {
    const { stream, size } = await zipEntry(join(dir, 'batches.zip'), 'readme.txt');
    expect(size).toBe(7);
    expect(await collect(readLines(stream))).toEqual(['skip me']);
    await expect(zipEntry(join(dir, 'batches.zip'), 'nope.txt')).rejects.toThrow('no entry named nope.txt');
  });

  it('can abandon an entry half-read and go on to the next', async () => {
    const firstLines: string[] = [];
    for await (const entry of zipEntries(join(dir, 'batches.zip'), /\.csv$/)) {
      for await (const line of readLines(entry)) {
        firstLines.push(line);
        break;
      }
    }
    expect(firstLines).toEqual(['b1', expect.any(String)]);
  });

  it('lists a folder and resolves a path to its sources', async () => {
    const files = await collect(folderFiles(join(FIXTURES, 'geonames'), /\.txt$/));
    expect(files.map((f) => f.name)).toEqual(['AT.txt', 'CH.txt', 'CZ.txt', 'LI.txt', 'PL.txt', 'SK.txt']);
    const single = await collect(sourcesAt(join(FIXTURES, 'cz/psc-list.csv')));
    expect(single.map((f) => f.name)).toEqual(['psc-list.csv']);
    const zipped = await collect(sourcesAt(join(dir, 'batches.zip'), /\.txt$/));
    expect(zipped.map((f) => f.name)).toEqual(['readme.txt']);
  });

  it('filters a folder by the name pattern', async () => {
    writeFileSync(join(dir, 'note.md'), 'x');
    const files = await collect(folderFiles(dir, /\.zip$/));
    expect(files.map((f) => f.name)).toEqual(['batches.zip']);
  });
});

describeWithData([sharedData('sk/davky.zip')], 'zip readers on the real Register adries zip', () => {
  it('lists the batches and reads the head of one without reading the rest', async () => {
    const names: string[] = [];
    let head = '';
    for await (const entry of zipEntries(sharedData('sk/davky.zip'), /\.xml$/)) {
      names.push(entry.name);
      if (entry.name.endsWith('-05.xml')) {
        for await (const line of readLines(entry)) {
          if (line.includes('<type>')) {
            head = line.trim();
            break;
          }
        }
      }
    }
    expect(names).toContain('DavkaInit_20151009-01.xml');
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(head).toBe('<type>STREET_NAME</type>');
  });
});
