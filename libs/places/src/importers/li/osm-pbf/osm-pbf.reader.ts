import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { ProtoReader, Wire } from './protobuf';

const inflateAsync = promisify(inflate);

/** Limits of the OSM PBF format: a bigger header or blob means the file is not PBF or is damaged. */
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

export type OsmTags = Record<string, string>;

export interface OsmNode {
  type: 'node';
  id: number;
  lat: number;
  lng: number;
  tags: OsmTags;
}

export interface OsmWay {
  type: 'way';
  id: number;
  refs: number[];
  tags: OsmTags;
}

export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmRelation {
  type: 'relation';
  id: number;
  members: OsmMember[];
  tags: OsmTags;
}

export type OsmElement = OsmNode | OsmWay | OsmRelation;

/** Which kinds of elements to decode; skipping the others saves most of the work. */
export interface OsmReadOptions {
  nodes?: boolean;
  ways?: boolean;
  relations?: boolean;
}

/**
 * Elements of an OSM PBF file, block by block: the file is read blob by blob (at most one
 * 32 MB blob and its inflated block in memory), raw or zlib blobs; other compressions are
 * refused with a clear error. Coordinates in degrees (granularity and offsets applied).
 */
export async function* readOsmPbf(path: string, options: OsmReadOptions = { nodes: true, ways: true, relations: true }): AsyncGenerator<OsmElement[]> {
  const fh = await open(path, 'r');
  try {
    let offset = 0;
    const size = (await fh.stat()).size;
    while (offset < size) {
      const lenBuf = await readExactly(fh, offset, 4, path);
      const headerLen = lenBuf.readUInt32BE(0);
      if (headerLen > MAX_HEADER) throw new Error(`${path} at byte ${offset}: BlobHeader of ${headerLen} bytes: not an OSM PBF file`);
      const header = parseBlobHeader(await readExactly(fh, offset + 4, headerLen, path));
      if (header.datasize > MAX_BLOB) throw new Error(`${path} at byte ${offset}: blob of ${header.datasize} bytes exceeds the format's 32 MB`);
      const blob = await readExactly(fh, offset + 4 + headerLen, header.datasize, path);
      offset += 4 + headerLen + header.datasize;
      if (header.type !== 'OSMData') continue;
      yield decodeBlock(await blobData(blob, path), options);
    }
  } finally {
    await fh.close();
  }
}

async function readExactly(fh: import('node:fs/promises').FileHandle, position: number, length: number, path: string): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw new Error(`${path}: truncated at byte ${position + bytesRead} (expected ${length} more bytes)`);
  return buf;
}

function parseBlobHeader(buf: Uint8Array): { type: string; datasize: number } {
  const r = new ProtoReader(buf);
  let type = '';
  let datasize = -1;
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === Wire.Bytes) type = r.string();
    else if (field === 3 && wire === Wire.Varint) datasize = r.varint();
    else r.skip(wire);
  }
  if (!type || datasize < 0) throw new Error('BlobHeader without type or datasize: not an OSM PBF file');
  return { type, datasize };
}

async function blobData(buf: Uint8Array, path: string): Promise<Uint8Array> {
  const r = new ProtoReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === Wire.Bytes) return r.bytes();
    if (field === 3 && wire === Wire.Bytes) return inflateAsync(r.bytes());
    if (field >= 4 && field <= 7 && wire === Wire.Bytes) throw new Error(`${path}: blob compression #${field} (lzma/bzip2/lz4/zstd) is not supported; re-encode with zlib (osmium cat -o out.osm.pbf)`);
    r.skip(wire);
  }
  throw new Error(`${path}: blob without data`);
}

interface Block {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** One PrimitiveBlock: the string table and scaling first, then its groups. */
export function decodeBlock(buf: Uint8Array, options: OsmReadOptions): OsmElement[] {
  const block: Block = { strings: [], granularity: 100, latOffset: 0, lonOffset: 0 };
  const groups: Uint8Array[] = [];
  const r = new ProtoReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === Wire.Bytes) block.strings = stringTable(r.bytes());
    else if (field === 2 && wire === Wire.Bytes) groups.push(r.bytes());
    else if (field === 17 && wire === Wire.Varint) block.granularity = r.varint();
    else if (field === 19 && wire === Wire.Varint) block.latOffset = r.varint();
    else if (field === 20 && wire === Wire.Varint) block.lonOffset = r.varint();
    else r.skip(wire);
  }
  const out: OsmElement[] = [];
  for (const g of groups) decodeGroup(g, block, options, out);
  return out;
}

function stringTable(buf: Uint8Array): string[] {
  const r = new ProtoReader(buf);
  const out: string[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === Wire.Bytes) out.push(r.string());
    else r.skip(wire);
  }
  return out;
}

function decodeGroup(buf: Uint8Array, b: Block, o: OsmReadOptions, out: OsmElement[]): void {
  const r = new ProtoReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === Wire.Bytes && o.nodes) out.push(node(r.bytes(), b));
    else if (field === 2 && wire === Wire.Bytes && o.nodes) dense(r.bytes(), b, out);
    else if (field === 3 && wire === Wire.Bytes && o.ways) out.push(way(r.bytes(), b));
    else if (field === 4 && wire === Wire.Bytes && o.relations) out.push(relation(r.bytes(), b));
    else r.skip(wire);
  }
}

function degrees(offset: number, granularity: number, v: number): number {
  return Math.round((offset + granularity * v) / 100) / 1e7;
}

function tags(b: Block, keys: number[], vals: number[]): OsmTags {
  const t: OsmTags = {};
  for (let i = 0; i < keys.length; i++) t[str(b, keys[i]!)] = str(b, vals[i]!);
  return t;
}

function str(b: Block, i: number): string {
  const s = b.strings[i];
  if (s === undefined) throw new Error(`string index ${i} outside the block's string table`);
  return s;
}

function node(buf: Uint8Array, b: Block): OsmNode {
  const r = new ProtoReader(buf);
  let id = 0;
  let lat = 0;
  let lon = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1) id = r.svarint();
    else if (field === 2) r.packed(wire, keys);
    else if (field === 3) r.packed(wire, vals);
    else if (field === 8) lat = r.svarint();
    else if (field === 9) lon = r.svarint();
    else r.skip(wire);
  }
  return { type: 'node', id, lat: degrees(b.latOffset, b.granularity, lat), lng: degrees(b.lonOffset, b.granularity, lon), tags: tags(b, keys, vals) };
}

/** DenseNodes: delta-coded ids and coordinates, tags as one 0-separated key/value run. */
function dense(buf: Uint8Array, b: Block, out: OsmElement[]): void {
  const r = new ProtoReader(buf);
  const ids: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  const kv: number[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1) r.packed(wire, ids, true);
    else if (field === 8) r.packed(wire, lats, true);
    else if (field === 9) r.packed(wire, lons, true);
    else if (field === 10) r.packed(wire, kv);
    else r.skip(wire);
  }
  if (lats.length !== ids.length || lons.length !== ids.length) throw new Error('DenseNodes with unequal id/lat/lon counts');
  let id = 0;
  let lat = 0;
  let lon = 0;
  let k = 0;
  for (let i = 0; i < ids.length; i++) {
    id += ids[i]!;
    lat += lats[i]!;
    lon += lons[i]!;
    const t: OsmTags = {};
    while (k < kv.length && kv[k] !== 0) {
      t[str(b, kv[k]!)] = str(b, kv[k + 1]!);
      k += 2;
    }
    k++;
    out.push({ type: 'node', id, lat: degrees(b.latOffset, b.granularity, lat), lng: degrees(b.lonOffset, b.granularity, lon), tags: t });
  }
}

function way(buf: Uint8Array, b: Block): OsmWay {
  const r = new ProtoReader(buf);
  let id = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  const deltas: number[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1) id = r.varint();
    else if (field === 2) r.packed(wire, keys);
    else if (field === 3) r.packed(wire, vals);
    else if (field === 8) r.packed(wire, deltas, true);
    else r.skip(wire);
  }
  let ref = 0;
  const refs = deltas.map((d) => (ref += d));
  return { type: 'way', id, refs, tags: tags(b, keys, vals) };
}

const MEMBER_TYPES = ['node', 'way', 'relation'] as const;

function relation(buf: Uint8Array, b: Block): OsmRelation {
  const r = new ProtoReader(buf);
  let id = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  const roles: number[] = [];
  const deltas: number[] = [];
  const types: number[] = [];
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field === 1) id = r.varint();
    else if (field === 2) r.packed(wire, keys);
    else if (field === 3) r.packed(wire, vals);
    else if (field === 8) r.packed(wire, roles);
    else if (field === 9) r.packed(wire, deltas, true);
    else if (field === 10) r.packed(wire, types);
    else r.skip(wire);
  }
  let ref = 0;
  const members = deltas.map((d, i): OsmMember => {
    const type = MEMBER_TYPES[types[i] ?? -1];
    if (!type) throw new Error(`relation ${id}: member type ${types[i]} is not node, way or relation`);
    return { type, ref: (ref += d), role: str(b, roles[i] ?? 0) };
  });
  return { type: 'relation', id, members, tags: tags(b, keys, vals) };
}
