/**
 * OSM PBF decoding on the real Liechtenstein extract: the blocks' protobuf decoding (pbf@4,
 * `decodeBlock`) against the floor of merely inflating the same blobs with zlib, in the same
 * run, several rounds alternately. Prints the medians and the ratio decode / inflate.
 *   node -r ./tools/ts-register.js bench/osm-pbf-decoder.ts [file.osm.pbf] [rounds]
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import Pbf from 'pbf';
import { decodeBlock } from '../libs/places/src/importers/li/osm-pbf/osm-block.decoder';

const ALL = { nodes: true, ways: true, relations: true };

/** The zlib payloads of the file's OSMData blobs. */
function zlibBlobs(path: string): Uint8Array[] {
  const buf = readFileSync(path);
  const out: Uint8Array[] = [];
  for (let off = 0; off < buf.length; ) {
    const hl = buf.readUInt32BE(off);
    const h = new Pbf(buf.subarray(off + 4, off + 4 + hl)).readFields((t, r: { type: string; size: number }, p) => (t === 1 ? (r.type = p.readString()) : t === 3 ? (r.size = p.readVarint()) : undefined), { type: '', size: 0 });
    const body = buf.subarray(off + 4 + hl, off + 4 + hl + h.size);
    off += 4 + hl + h.size;
    if (h.type !== 'OSMData') continue;
    new Pbf(body).readFields((t, _: null, p) => (t === 3 ? void out.push(p.readBytes()) : undefined), null);
  }
  return out;
}

function ms(f: () => void): number {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const path = process.argv[2] ?? '../shared/data/li/liechtenstein-2022.osm.pbf';
const rounds = Number(process.argv[3] ?? 15);
const blobs = zlibBlobs(path);
const blocks = blobs.map((b) => inflateSync(b));
console.log(`${blocks.length} blocks, ${blocks.flatMap((b) => decodeBlock(b, ALL)).length} elements`);
const t = { inflate: [] as number[], decode: [] as number[] };
for (let i = 0; i < rounds; i++) {
  t.inflate.push(ms(() => blobs.forEach((b) => inflateSync(b))));
  t.decode.push(ms(() => blocks.forEach((b) => decodeBlock(b, ALL))));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`inflate (floor): median ${median(t.inflate).toFixed(1)} ms; decode: median ${median(t.decode).toFixed(1)} ms; decode / inflate = ${(median(t.decode) / median(t.inflate)).toFixed(2)} (${rounds} rounds)`);
