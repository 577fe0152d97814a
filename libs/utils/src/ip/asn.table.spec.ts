import { AsnRanges, formatOrg, toLimbs } from './asn.table';

/** A few rows in the package's own format, including a quoted name with a comma and 128-bit values. */
const V4 = ['16777216,16777471,13335,"Cloudflare, Inc."', '16778240,16779263,38803,Gtelecom Pty Ltd', '2466250752,2466381823,2852,CESNET z.s.p.o.', ''].join('\n');
const V6 = [
  '42540488161975842760550356425300246528,42540488241204005274814694018844196863,6939,Hurricane Electric LLC',
  '42541956123769884636017138956568135680,42541956123769884636017138956568135935,15169,"Google, ""LLC"""',
].join('\r\n');

describe('ASN range table', () => {
  const v4 = AsnRanges.parse(Buffer.from(V4), 1);
  const v6 = AsnRanges.parse(Buffer.from(V6), 4);

  it('finds the range holding an IPv4 address, and nothing between ranges', () => {
    expect(v4.size).toBe(3);
    expect(v4.find(toLimbs(16777216n + 5n, 1))).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(v4.find(toLimbs(16779263n, 1))).toEqual({ asn: 38803, org: 'Gtelecom Pty Ltd' });
    expect(v4.find(toLimbs(16777472n, 1))).toBeNull();
    expect(v4.find(toLimbs(1n, 1))).toBeNull();
    expect(v4.find(toLimbs(4294967295n, 1))).toBeNull();
  });

  it('compares IPv6 addresses on all 128 bits, including ranges not aligned to /64', () => {
    expect(v6.find(toLimbs(0x20010000ffffffffffffffffffffffffn, 4))).toEqual({ asn: 6939, org: 'Hurricane Electric LLC' });
    expect(v6.find(toLimbs(0x20010001000000000000000000000000n, 4))).toBeNull();
    expect(v6.find(toLimbs(42541956123769884636017138956568135935n, 4))).toEqual({ asn: 15169, org: 'Google, "LLC"' });
    expect(v6.find(toLimbs(42541956123769884636017138956568135936n, 4))).toBeNull();
  });

  it('writes org as AS number and name', () => {
    expect(formatOrg({ asn: 2852, org: 'CESNET z.s.p.o.' })).toBe('AS2852 CESNET z.s.p.o.');
    expect(formatOrg(null)).toBeNull();
  });

  it('reads 128-bit boundaries exactly (random ranges, every start, end and the gap after)', () => {
    let at = 1n << 100n;
    const rows: Array<[bigint, bigint]> = [];
    for (let i = 0; i < 300; i++) {
      const start = at + BigInt(Math.floor(Math.random() * 1e9)) * 987654321987n;
      const end = start + BigInt(Math.floor(Math.random() * 1e6)) * 12345678901n;
      rows.push([start, end]);
      at = end + 2n;
    }
    const table = AsnRanges.parse(Buffer.from(rows.map(([s, e], i) => `${s},${e},${i},org ${i}`).join('\n')), 4);
    rows.forEach(([start, end], i) => {
      expect(table.find(toLimbs(start, 4))?.asn).toBe(i);
      expect(table.find(toLimbs(end, 4))?.asn).toBe(i);
      expect(table.find(toLimbs(end + 1n, 4))).toBeNull();
    });
  });
});
