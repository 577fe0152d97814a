import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import Pbf from 'pbf';
import { decodeBlock } from './osm-block.decoder';

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
  const h = new Pbf(buf).readFields(
    (tag, r: { type: string; datasize: number }, p) => {
      if (tag === 1) r.type = p.readString();
      else if (tag === 3) r.datasize = p.readVarint();
    },
    { type: '', datasize: -1 },
  );
  if (!h.type || h.datasize < 0) throw new Error('BlobHeader without type or datasize: not an OSM PBF file');
  return h;
}

/** Blob fields: 1 raw, 3 zlib; 4-7 the other compressions. */
async function blobData(buf: Uint8Array, path: string): Promise<Uint8Array> {
  const found = new Pbf(buf).readFields(
    (tag, r: { field: number; data: Uint8Array | null }, p) => {
      if (r.data === null && tag !== 2) [r.field, r.data] = [tag, p.readBytes()];
    },
    { field: 0, data: null },
  );
  if (found.data === null) throw new Error(`${path}: blob without data`);
  if (found.field === 1) return found.data;
  if (found.field === 3) return inflateAsync(found.data);
  throw new Error(`${path}: blob compression #${found.field} (lzma/bzip2/lz4/zstd) is not supported; re-encode with zlib (osmium cat -o out.osm.pbf)`);
}
