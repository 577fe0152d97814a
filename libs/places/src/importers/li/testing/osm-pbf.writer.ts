import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { ProtoWriter } from './proto-writer';

export interface PbfNode {
  id: number;
  lat: number;
  lng: number;
  tags?: Record<string, string>;
}

export interface PbfWay {
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}

export interface PbfRelation {
  id: number;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
  tags?: Record<string, string>;
}

/**
 * Writes a small but real OSM PBF (OSMHeader + one OSMData block, zlib blobs, string table,
 * delta-coded DenseNodes, ways and relations) so the reader is tested on the actual encoding.
 * Tagged nodes go into a plain `Node` group when `plainNodes` is set, to cover both node forms.
 */
export function writeOsmPbf(path: string, data: { nodes: PbfNode[]; ways?: PbfWay[]; relations?: PbfRelation[]; plainNodes?: boolean; raw?: boolean }): void {
  const strings = new Strings();
  const groups: Uint8Array[] = [];
  const dense = data.plainNodes ? data.nodes.filter((n) => !n.tags) : data.nodes;
  if (dense.length) groups.push(new ProtoWriter().bytesField(2, denseNodes(dense, strings)).finish());
  if (data.plainNodes) {
    const g = new ProtoWriter();
    for (const n of data.nodes.filter((x) => x.tags)) g.bytesField(1, plainNode(n, strings));
    groups.push(g.finish());
  }
  if (data.ways?.length) {
    const g = new ProtoWriter();
    for (const w of data.ways) g.bytesField(3, way(w, strings));
    groups.push(g.finish());
  }
  if (data.relations?.length) {
    const g = new ProtoWriter();
    for (const r of data.relations) g.bytesField(4, relation(r, strings));
    groups.push(g.finish());
  }
  const block = new ProtoWriter().bytesField(1, strings.table());
  for (const g of groups) block.bytesField(2, g);
  block.varintField(17, 100);
  const header = new ProtoWriter().bytesField(4, 'OsmSchema-V0.6').bytesField(4, 'DenseNodes').bytesField(16, 'lookup test writer').finish();
  writeFileSync(path, Buffer.concat([blob('OSMHeader', header, data.raw), blob('OSMData', block.finish(), data.raw)]));
}

function blob(type: string, payload: Uint8Array, raw?: boolean): Buffer {
  const body = raw
    ? new ProtoWriter().bytesField(1, payload).finish()
    : new ProtoWriter().varintField(2, payload.length).bytesField(3, deflateSync(payload)).finish();
  const header = new ProtoWriter().bytesField(1, type).varintField(3, body.length).finish();
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.length);
  return Buffer.concat([len, header, body]);
}

class Strings {
  private readonly index = new Map<string, number>([['', 0]]);

  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) this.index.set(s, (i = this.index.size));
    return i;
  }

  table(): Uint8Array {
    const w = new ProtoWriter();
    for (const s of this.index.keys()) w.bytesField(1, s);
    return w.finish();
  }
}

const units = (deg: number) => Math.round(deg * 1e7);

function deltas(values: number[]): number[] {
  return values.map((v, i) => v - (i ? values[i - 1]! : 0));
}

function denseNodes(nodes: PbfNode[], s: Strings): Uint8Array {
  const kv: number[] = [];
  for (const n of nodes) {
    for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(s.id(k), s.id(v));
    kv.push(0);
  }
  return new ProtoWriter()
    .packedField(1, deltas(nodes.map((n) => n.id)), true)
    .packedField(8, deltas(nodes.map((n) => units(n.lat))), true)
    .packedField(9, deltas(nodes.map((n) => units(n.lng))), true)
    .packedField(10, kv)
    .finish();
}

function keysVals(w: ProtoWriter, tags: Record<string, string> | undefined, s: Strings): ProtoWriter {
  const entries = Object.entries(tags ?? {});
  if (!entries.length) return w;
  return w.packedField(2, entries.map(([k]) => s.id(k))).packedField(3, entries.map(([, v]) => s.id(v)));
}

function plainNode(n: PbfNode, s: Strings): Uint8Array {
  return keysVals(new ProtoWriter().svarintField(1, n.id), n.tags, s).svarintField(8, units(n.lat)).svarintField(9, units(n.lng)).finish();
}

function way(w: PbfWay, s: Strings): Uint8Array {
  return keysVals(new ProtoWriter().varintField(1, w.id), w.tags, s).packedField(8, deltas(w.refs), true).finish();
}

const TYPE = { node: 0, way: 1, relation: 2 } as const;

function relation(r: PbfRelation, s: Strings): Uint8Array {
  return keysVals(new ProtoWriter().varintField(1, r.id), r.tags, s)
    .packedField(8, r.members.map((m) => s.id(m.role)))
    .packedField(9, deltas(r.members.map((m) => m.ref)), true)
    .packedField(10, r.members.map((m) => TYPE[m.type]))
    .finish();
}
