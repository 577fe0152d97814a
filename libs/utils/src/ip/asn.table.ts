import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the bundled ASN data lives: the `@ip-location-db/asn` package (RouteViews + DB-IP ASN Lite, CC BY 4.0). */
export function defaultAsnDir(): string {
  return join(require.resolve('@ip-location-db/asn/package.json'), '..');
}

export interface AsnEntry {
  asn: number;
  org: string;
}

const COMMA = 44;
const NEWLINE = 10;
const TWO32 = 4294967296;

/**
 * One `asn-ipv*-num.csv` file (`start,end,asn,org`, sorted, non-overlapping) held as typed
 * arrays: addresses as 1 (IPv4) or 4 (IPv6) 32-bit limbs, the organisation as an index into
 * the file's distinct names (tens of thousands for hundreds of thousands of ranges). Loading is
 * one pass over the bytes; the file itself is not kept.
 */
export class AsnRanges {
  private constructor(
    private readonly width: 1 | 4,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly asns: Uint32Array,
    private readonly orgIds: Uint32Array,
    private readonly orgs: string[],
    readonly size: number,
  ) {}

  static parse(file: Buffer, width: 1 | 4): AsnRanges {
    const buf = new Uint8Array(file.buffer, file.byteOffset, file.length);
    const len = buf.length;
    let lines = 1;
    for (let p = file.indexOf(NEWLINE); p !== -1; p = file.indexOf(NEWLINE, p + 1)) lines++;
    const starts = new Uint32Array(lines * width);
    const ends = new Uint32Array(lines * width);
    const asns = new Uint32Array(lines);
    const orgIds = new Uint32Array(lines);
    const orgs: string[] = [];
    const idOf = new Map<string, number>();
    let row = 0;
    let i = 0;
    while (i < len) {
      if (buf[i] === NEWLINE) {
        i++;
        continue;
      }
      i = readNumber(buf, i, starts, row * width, width);
      i = readNumber(buf, i, ends, row * width, width);
      let asn = 0;
      while (i < len && buf[i] !== COMMA) asn = asn * 10 + (buf[i++] - 48);
      const at = ++i;
      i = file.indexOf(NEWLINE, i);
      if (i === -1) i = len;
      const end = buf[i - 1] === 13 ? i - 1 : i;
      let org = file.toString('utf8', at, end);
      let id = idOf.get(org);
      if (id === undefined) {
        id = orgs.length;
        idOf.set(org, id);
        if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replace(/""/g, '"');
        orgs.push(org);
      }
      asns[row] = asn;
      orgIds[row] = id;
      row++;
    }
    return new AsnRanges(width, starts.slice(0, row * width), ends.slice(0, row * width), asns.slice(0, row), orgIds.slice(0, row), orgs, row);
  }

  /** `key`: the address as `width` limbs, most significant first. */
  find(key: Uint32Array): AsnEntry | null {
    let lo = 0;
    let hi = this.size - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compare(this.starts, mid * this.width, key, this.width) <= 0) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0 || compare(this.ends, at * this.width, key, this.width) < 0) return null;
    return { asn: this.asns[at], org: this.orgs[this.orgIds[at]] };
  }
}

/**
 * A decimal number up to the next comma, into `width` 32-bit limbs; returns the index after the
 * comma. Digits are gathered 6 at a time (limb × 10^6 stays below 2^53, exact in a double)
 * and folded into the limbs per chunk.
 */
function readNumber(buf: Uint8Array, i: number, out: Uint32Array, off: number, width: 1 | 4): number {
  const len = buf.length;
  if (width === 1) {
    let n = 0;
    while (i < len && buf[i] !== COMMA) n = n * 10 + (buf[i++] - 48);
    out[off] = n;
    return i + 1;
  }
  while (i < len && buf[i] !== COMMA) {
    let chunk = 0;
    let scale = 1;
    while (scale < 1e6 && i < len && buf[i] !== COMMA) {
      chunk = chunk * 10 + (buf[i++] - 48);
      scale *= 10;
    }
    let carry = chunk;
    for (let k = 3; k >= 0; k--) {
      const v = out[off + k] * scale + carry;
      const high = Math.floor(v / TWO32);
      out[off + k] = v - high * TWO32;
      carry = high;
    }
  }
  return i + 1;
}

function compare(arr: Uint32Array, off: number, key: Uint32Array, width: number): number {
  for (let k = 0; k < width; k++) {
    if (arr[off + k] !== key[k]) return arr[off + k] < key[k] ? -1 : 1;
  }
  return 0;
}

/** An address as limbs, most significant first. */
export function toLimbs(value: bigint, width: 1 | 4): Uint32Array {
  const out = new Uint32Array(width);
  let v = value;
  for (let k = width - 1; k >= 0; k--) {
    out[k] = Number(v & 0xffffffffn);
    v >>= 32n;
  }
  return out;
}

type Tables = Promise<{ v4: AsnRanges; v6: AsnRanges }>;
/** Loaded tables per directory, shared by every AsnTable of the process (several apps in one test worker load once). */
const LOADED = new Map<string, Tables>();

/** IPv4 and IPv6 ASN ranges, loaded once on first use. */
export class AsnTable {
  constructor(private readonly dir: string = defaultAsnDir()) {}

  /** Loads the tables (once); resolves when they can answer. */
  async ready(): Promise<void> {
    await this.load();
  }

  async lookup(ip: { kind: 'ipv4' | 'ipv6'; value: bigint }): Promise<AsnEntry | null> {
    const t = await this.load();
    return ip.kind === 'ipv4' ? t.v4.find(toLimbs(ip.value, 1)) : t.v6.find(toLimbs(ip.value, 4));
  }

  private load(): Tables {
    let tables = LOADED.get(this.dir);
    if (!tables) {
      tables = Promise.all([readFile(join(this.dir, 'asn-ipv4-num.csv')), readFile(join(this.dir, 'asn-ipv6-num.csv'))]).then(([v4, v6]) => ({
        v4: AsnRanges.parse(v4, 1),
        v6: AsnRanges.parse(v6, 4),
      }));
      LOADED.set(this.dir, tables);
      // A failed load is not kept: the next lookup tries again.
      tables.catch(() => LOADED.delete(this.dir));
    }
    return tables;
  }
}

/** `AS13335 Cloudflare, Inc.`, the usual way IP services write `org`. */
export function formatOrg(e: AsnEntry | null): string | null {
  if (!e) return null;
  return e.org ? `AS${e.asn} ${e.org}` : `AS${e.asn}`;
}
