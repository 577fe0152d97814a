import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { Reader } from 'maxmind';
import { seededRandom } from '@lookup/shared/runtime';
import { tempDir } from '@lookup/shared/testing';
import { defaultCityDbPaths } from './city.db';
import { MmdbFile, MmdbFormatError } from './mmdb-file';

// A writer for the MMDB data format (https://maxmind.github.io/MaxMind-DB/), just enough to
// build small files by hand: the control byte, the size forms and each type.
type Enc = Buffer;
function ctrl(type: number, size: number): Buffer {
  const ext = type > 7;
  const head = (ext ? 0 : type << 5) & 0xe0;
  let sizeBits: number;
  let sizeBytes: Buffer;
  if (size < 29) [sizeBits, sizeBytes] = [size, Buffer.alloc(0)];
  else if (size < 285) [sizeBits, sizeBytes] = [29, Buffer.from([size - 29])];
  else if (size < 65821) {
    sizeBytes = Buffer.alloc(2);
    sizeBytes.writeUInt16BE(size - 285);
    sizeBits = 30;
  } else {
    sizeBytes = Buffer.alloc(3);
    sizeBytes.writeUIntBE(size - 65821, 0, 3);
    sizeBits = 31;
  }
  return Buffer.concat([Buffer.from([head | sizeBits]), ext ? Buffer.from([type - 7]) : Buffer.alloc(0), sizeBytes]);
}
const str = (s: string): Enc => Buffer.concat([ctrl(2, Buffer.byteLength(s)), Buffer.from(s)]);
const uint = (type: 5 | 6 | 9 | 10, v: bigint): Enc => {
  const bytes: number[] = [];
  for (let x = v; x > 0n; x >>= 8n) bytes.unshift(Number(x & 0xffn));
  return Buffer.concat([ctrl(type, bytes.length), Buffer.from(bytes)]);
};
const double = (v: number): Enc => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v);
  return Buffer.concat([ctrl(3, 8), b]);
};
const float = (v: number): Enc => {
  const b = Buffer.alloc(4);
  b.writeFloatBE(v);
  return Buffer.concat([ctrl(15, 4), b]);
};
const int32 = (v: number): Enc => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return Buffer.concat([ctrl(8, 4), b]);
};
const map = (pairs: Array<[string | Enc, Enc]>): Enc =>
  Buffer.concat([ctrl(7, pairs.length), ...pairs.flatMap(([k, v]) => [typeof k === 'string' ? str(k) : k, v])]);
const array = (items: Enc[]): Enc => Buffer.concat([ctrl(11, items.length), ...items]);
const bool = (v: boolean): Enc => ctrl(14, v ? 1 : 0);
const bytes = (b: Buffer): Enc => Buffer.concat([ctrl(4, b.length), b]);
/** A pointer of the 1-byte-size form (targets below 2048). */
const pointer = (target: number): Enc => Buffer.from([0x20 | (target >> 8), target & 0xff]);

const MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');

/**
 * An IPv4 tree (record size 24) of two nodes: 0.0.0.0/1 -> node 1, 128.0.0.0/1 -> no data;
 * node 1: 0.0.0.0/2 -> record A, 64.0.0.0/2 -> record B.
 */
function tinyDb(recordA: Enc, recordB: Enc, shared: Enc): { file: Buffer; nodeCount: number } {
  const nodeCount = 2;
  // Data section: the shared value first (pointer target 0), then A and B.
  const data = Buffer.concat([shared, recordA, recordB]);
  const rec = (dataOffset: number) => nodeCount + 16 + dataOffset;
  const node = (left: number, right: number) => {
    const b = Buffer.alloc(6);
    b.writeUIntBE(left, 0, 3);
    b.writeUIntBE(right, 3, 3);
    return b;
  };
  const tree = Buffer.concat([node(1, nodeCount), node(rec(shared.length), rec(shared.length + recordA.length))]);
  const meta = map([
    ['node_count', uint(6, BigInt(nodeCount))],
    ['record_size', uint(5, 24n)],
    ['ip_version', uint(5, 4n)],
    ['database_type', str('Lookup-Test')],
    ['build_epoch', uint(9, 1764115200n)],
  ]);
  return { file: Buffer.concat([tree, Buffer.alloc(16), data, MARKER, meta]), nodeCount };
}

describe('MmdbFile', () => {
  const tmp = tempDir('mmdb-');
  const dir = tmp.path;
  afterAll(() => tmp.remove());

  it('walks the tree and decodes every data type, pointers and the long size forms included', () => {
    const shared = str('shared by pointer');
    const long = 'x'.repeat(300) + 'é'.repeat(40000);
    const recordA = map([
      ['string', str('Brno-střed')],
      ['double', double(49.19522)],
      ['float', float(16.5)],
      ['uint16', uint(5, 65535n)],
      ['uint32', uint(6, 4294967295n)],
      ['int32', int32(-42)],
      ['uint64', uint(9, 2n ** 64n - 1n)],
      ['uint128', uint(10, 1n)],
      ['array', array([str('a'), bool(true), bool(false)])],
      ['bytes', bytes(Buffer.from([1, 2, 3]))],
      ['nested', map([['by pointer', pointer(0)]])],
      [pointer(0), str('value of a pointed-to key')],
      ['long', str(long)],
      ['__proto__', str('just a key')],
    ]);
    const recordB = map([['city', str('Praha')]]);
    const { file } = tinyDb(recordA, recordB, shared);
    const path = join(dir, 'tiny.mmdb');
    writeFileSync(path, file);
    // Pages of 4 KiB and a cache of 2 pages: values cross page boundaries and pages are evicted.
    const db = new MmdbFile(path, 2);
    try {
      expect(db.metadata).toEqual({ nodeCount: 2, recordSize: 24, ipVersion: 4, databaseType: 'Lookup-Test', buildEpoch: 1764115200 });
      const a = db.get(Uint8Array.from([10, 1, 2, 3])) as Record<string, unknown>;
      expect(a).toEqual({
        string: 'Brno-střed',
        double: 49.19522,
        float: 16.5,
        uint16: 65535,
        uint32: 4294967295,
        int32: -42,
        uint64: 2n ** 64n - 1n,
        uint128: 1,
        array: ['a', true, false],
        bytes: Buffer.from([1, 2, 3]),
        nested: { 'by pointer': 'shared by pointer' },
        'shared by pointer': 'value of a pointed-to key',
        long,
        ['__proto__']: 'just a key',
      });
      expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
      expect(db.get(Uint8Array.from([100, 0, 0, 1]))).toEqual({ city: 'Praha' });
      expect(db.get(Uint8Array.from([200, 0, 0, 1]))).toBeNull();
      expect(() => db.get(new Uint8Array(16))).toThrow(MmdbFormatError);
    } finally {
      db.close();
    }
  });

  it('refuses a file that is not an MMDB, and one whose tree does not fit, naming the file', () => {
    const notDb = join(dir, 'not.mmdb');
    writeFileSync(notDb, 'start,end,asn\n1,2,3\n');
    expect(() => new MmdbFile(notDb)).toThrow(/not\.mmdb is not a MaxMind DB file/);
    const { file } = tinyDb(map([]), map([]), str('s'));
    const cut = join(dir, 'cut.mmdb');
    // The metadata claims a million nodes.
    writeFileSync(cut, Buffer.concat([file.subarray(0, file.indexOf(MARKER)), MARKER, map([['node_count', uint(6, 1000000n)], ['record_size', uint(5, 24n)], ['ip_version', uint(5, 4n)]])]));
    expect(() => new MmdbFile(cut)).toThrow(/cut\.mmdb: the search tree is larger than the file/);
    expect(() => new MmdbFile(join(dir, 'missing.mmdb'))).toThrow(/ENOENT/);
  });

  it('answers like the maxmind reader on the bundled DB-IP city files, for addresses across both families', () => {
    const paths = defaultCityDbPaths();
    const next = seededRandom(19);
    const v4: string[] = ['1.1.1.1', '8.8.8.8', '77.75.75.172', '185.17.192.1', '193.0.6.139', '255.255.255.254', '0.0.0.1'];
    for (let i = 0; i < 5000; i++) v4.push(Array.from({ length: 4 }, () => Math.floor(next() * 256)).join('.'));
    const v6: string[] = ['2001:4860:4860::8888', '2a00:1450:4014:80c::200e', '2606:4700:4700::1111', '::1'];
    for (let i = 0; i < 2000; i++) {
      const groups = Array.from({ length: 8 }, () => Math.floor(next() * 65536).toString(16));
      groups[0] = (0x2000 + Math.floor(next() * 0x1000)).toString(16); // mostly in 2000::/4, where the allocations are
      v6.push(groups.join(':'));
    }
    for (const [path, addrs] of [
      [paths.v4, v4],
      [paths.v6, v6],
    ] as const) {
      const reference = new Reader(readFileSync(path));
      const ours = new MmdbFile(path, 64);
      try {
        let found = 0;
        for (const a of addrs) {
          const want = reference.get(a);
          expect([a, ours.get(Uint8Array.from(ipaddr.parse(a).toByteArray()))]).toEqual([a, want]);
          if (want) found++;
        }
        // The comparison means something only if most sampled addresses have a record.
        expect(found).toBeGreaterThan(addrs.length / 2);
      } finally {
        ours.close();
      }
    }
  });
});
