import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A MaxMind DB (MMDB, https://maxmind.github.io/MaxMind-DB/) read from its file page by page
 * instead of held in memory: the bundled DB-IP city files are 134 MB, which as Buffers were
 * the largest part of the standalone server's memory. Pages come from the kernel's page cache
 * (`pread` of 4 KiB), the most recent ones kept here (the tree's top levels stay hot); a lookup
 * reads a handful of pages, tens of microseconds once the file is cached.
 */

const PAGE = 4096;
const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'); // \xAB\xCD\xEF MaxMind.com
const METADATA_MAX = 128 * 1024;
const DATA_SEPARATOR = 16;

export class MmdbFormatError extends Error {}

/** A file's bytes through an LRU of pages read with `pread`. */
class PagedFile {
  private readonly pages = new Map<number, Buffer>();

  constructor(
    private readonly fd: number,
    readonly size: number,
    private readonly maxPages: number,
  ) {}

  /** Page reads from the file so far (cache misses). */
  reads = 0;
  private lastN = -1;
  private lastP: Buffer = Buffer.alloc(0);

  private page(n: number): Buffer {
    if (n === this.lastN) return this.lastP;
    let p = this.pages.get(n);
    if (p) {
      // Most recently used last: Map keeps insertion order.
      this.pages.delete(n);
      this.pages.set(n, p);
      this.lastN = n;
      this.lastP = p;
      return p;
    }
    this.reads++;
    const start = n * PAGE;
    const length = Math.min(PAGE, this.size - start);
    // The evicted page's memory is reused: views into pages never outlive a decode call.
    let evicted: Buffer | undefined;
    if (this.pages.size >= this.maxPages) {
      const oldest = this.pages.keys().next().value as number;
      evicted = this.pages.get(oldest);
      this.pages.delete(oldest);
    }
    p = evicted && evicted.length >= length ? evicted.subarray(0, length) : Buffer.allocUnsafeSlow(PAGE).subarray(0, length);
    let got = 0;
    while (got < p.length) {
      const r = readSync(this.fd, p, got, p.length - got, start + got);
      if (r === 0) throw new MmdbFormatError('The MMDB file ended early.');
      got += r;
    }
    this.pages.set(n, p);
    this.lastN = n;
    this.lastP = p;
    return p;
  }

  byte(off: number): number {
    if (off < 0 || off >= this.size) throw new MmdbFormatError(`Offset ${off} is outside the MMDB file.`);
    return this.page(Math.floor(off / PAGE))[off % PAGE];
  }

  /** `len` bytes at `off` (a view when they lie in one page). */
  bytes(off: number, len: number): Buffer {
    if (off < 0 || len < 0 || off + len > this.size) throw new MmdbFormatError(`Bytes ${off}+${len} are outside the MMDB file.`);
    const first = Math.floor(off / PAGE);
    const at = off % PAGE;
    if (at + len <= PAGE) return this.page(first).subarray(at, at + len);
    const out = Buffer.allocUnsafe(len);
    for (let copied = 0; copied < len; ) {
      const pos = off + copied;
      const p = this.page(Math.floor(pos / PAGE));
      copied += p.copy(out, copied, pos % PAGE, Math.min(PAGE, pos % PAGE + len - copied));
    }
    return out;
  }

  uintBE(off: number, n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.byte(off + i);
    return v;
  }

  clear(): void {
    this.pages.clear();
    this.lastN = -1;
  }
}

export type MmdbValue = string | number | bigint | boolean | Buffer | MmdbValue[] | { [key: string]: MmdbValue } | null;

/** The MMDB data-section decoder (types 1-15 of the spec) over a PagedFile. */
class Decoder {
  constructor(
    private readonly f: PagedFile,
    /** File offset that pointers are relative to. */
    private readonly base: number,
  ) {}

  decode(off: number, depth = 0): [MmdbValue, number] {
    if (depth > 64) throw new MmdbFormatError('MMDB data nested too deeply.');
    const ctrl = this.f.byte(off++);
    let type = ctrl >> 5;
    if (type === 1) {
      const ss = (ctrl >> 3) & 3;
      const vvv = ctrl & 7;
      let pointer: number;
      if (ss === 0) pointer = vvv * 256 + this.f.byte(off);
      else if (ss === 1) pointer = vvv * 65536 + this.f.uintBE(off, 2) + 2048;
      else if (ss === 2) pointer = vvv * 16777216 + this.f.uintBE(off, 3) + 526336;
      else pointer = this.f.uintBE(off, 4);
      const [value] = this.decode(this.base + pointer, depth + 1);
      return [value, off + ss + 1];
    }
    if (type === 0) type = 7 + this.f.byte(off++);
    let size = ctrl & 0x1f;
    if (size === 29) size = 29 + this.f.byte(off++);
    else if (size === 30) {
      size = 285 + this.f.uintBE(off, 2);
      off += 2;
    } else if (size === 31) {
      size = 65821 + this.f.uintBE(off, 3);
      off += 3;
    }
    switch (type) {
      case 2:
        return [this.f.bytes(off, size).toString('utf8'), off + size];
      case 3:
        if (size !== 8) throw new MmdbFormatError(`An MMDB double of ${size} bytes.`);
        return [this.f.bytes(off, 8).readDoubleBE(0), off + 8];
      case 4:
        return [Buffer.from(this.f.bytes(off, size)), off + size];
      case 5:
      case 6:
        return [this.f.uintBE(off, size), off + size];
      case 7: {
        const map: { [key: string]: MmdbValue } = {};
        for (let i = 0; i < size; i++) {
          const [key, next] = this.decode(off, depth + 1);
          if (typeof key !== 'string') throw new MmdbFormatError('An MMDB map key that is not a string.');
          const [value, after] = this.decode(next, depth + 1);
          Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
          off = after;
        }
        return [map, off];
      }
      case 8: {
        const v = size === 0 ? 0 : this.f.uintBE(off, size);
        return [size === 4 ? v | 0 : v, off + size];
      }
      case 9:
      case 10: {
        let v = 0n;
        for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(this.f.byte(off + i));
        return [v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v, off + size];
      }
      case 11: {
        const arr: MmdbValue[] = [];
        for (let i = 0; i < size; i++) {
          const [value, next] = this.decode(off, depth + 1);
          arr.push(value);
          off = next;
        }
        return [arr, off];
      }
      case 14:
        return [size !== 0, off];
      case 15:
        if (size !== 4) throw new MmdbFormatError(`An MMDB float of ${size} bytes.`);
        return [this.f.bytes(off, 4).readFloatBE(0), off + 4];
      default:
        throw new MmdbFormatError(`Unknown MMDB data type ${type}.`);
    }
  }
}

export interface MmdbMetadata {
  nodeCount: number;
  recordSize: 24 | 28 | 32;
  ipVersion: 4 | 6;
  databaseType: string;
  buildEpoch: number;
}

/** One MMDB file, open for lookups until close(). */
export class MmdbFile {
  readonly metadata: MmdbMetadata;
  private readonly file: PagedFile;
  private readonly data: Decoder;
  private readonly nodeBytes: number;
  private readonly treeSize: number;
  private readonly ipv4Start: number;
  private readonly fd: number;

  /** Opens the file and reads its metadata; throws MmdbFormatError for a file that is not an MMDB. */
  constructor(
    readonly path: string,
    cachePages = 1024,
  ) {
    const fd = openSync(path, 'r');
    try {
      this.file = new PagedFile(fd, fstatSync(fd).size, cachePages);
      this.metadata = readMetadata(this.file, path);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.fd = fd;
    this.nodeBytes = this.metadata.recordSize / 4;
    this.treeSize = this.metadata.nodeCount * this.nodeBytes;
    if (this.treeSize + DATA_SEPARATOR > this.file.size) throw new MmdbFormatError(`${path}: the search tree is larger than the file.`);
    this.data = new Decoder(this.file, this.treeSize + DATA_SEPARATOR);
    // IPv4 addresses in an IPv6 tree live under ::/96: 96 left turns from the root.
    let node = 0;
    if (this.metadata.ipVersion === 6) for (let i = 0; i < 96 && node < this.metadata.nodeCount; i++) node = this.record(node, 0);
    this.ipv4Start = node;
  }

  /** Pages read from the file since it was opened (reads the page cache here did not answer). */
  get pageReads(): number {
    return this.file.reads;
  }

  /** The record of an address given as bytes (4 for IPv4, 16 for IPv6), or null when the database has none. */
  get(address: Uint8Array): MmdbValue {
    const bits = address.length * 8;
    if (bits === 128 && this.metadata.ipVersion === 4) throw new MmdbFormatError(`${this.path} holds IPv4 addresses only.`);
    const count = this.metadata.nodeCount;
    let node = bits === 32 ? this.ipv4Start : 0;
    for (let depth = 0; depth < bits && node < count; depth++) node = this.record(node, (address[depth >> 3] >> (7 - (depth & 7))) & 1);
    if (node <= count) return null;
    const offset = node - count + this.treeSize;
    return this.data.decode(offset)[0];
  }

  private record(node: number, right: number): number {
    const off = node * this.nodeBytes;
    const f = this.file;
    switch (this.metadata.recordSize) {
      case 24:
        return f.uintBE(off + right * 3, 3);
      case 28:
        return right ? (f.byte(off + 3) & 0x0f) * 16777216 + f.uintBE(off + 4, 3) : (f.byte(off + 3) >> 4) * 16777216 + f.uintBE(off, 3);
      default:
        return f.uintBE(off + right * 4, 4);
    }
  }

  close(): void {
    this.file.clear();
    closeSync(this.fd);
  }
}

function readMetadata(f: PagedFile, path: string): MmdbMetadata {
  const from = Math.max(0, f.size - METADATA_MAX);
  const tail = f.bytes(from, f.size - from);
  const at = tail.lastIndexOf(METADATA_MARKER);
  if (at < 0) throw new MmdbFormatError(`${path} is not a MaxMind DB file (no metadata marker).`);
  const start = from + at + METADATA_MARKER.length;
  const [meta] = new Decoder(f, start).decode(start);
  const m = meta as { [key: string]: MmdbValue } | null;
  const nodeCount = m?.['node_count'];
  const recordSize = m?.['record_size'];
  const ipVersion = m?.['ip_version'];
  if (typeof nodeCount !== 'number' || (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) || (ipVersion !== 4 && ipVersion !== 6)) {
    throw new MmdbFormatError(`${path}: unreadable MMDB metadata (node_count, record_size 24/28/32, ip_version 4/6).`);
  }
  return {
    nodeCount,
    recordSize,
    ipVersion,
    databaseType: typeof m?.['database_type'] === 'string' ? (m['database_type'] as string) : '',
    buildEpoch: typeof m?.['build_epoch'] === 'number' ? (m['build_epoch'] as number) : 0,
  };
}
