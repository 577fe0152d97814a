import Pbf from 'pbf';
import type { OsmElement, OsmMember, OsmNode, OsmReadOptions, OsmRelation, OsmTags, OsmWay } from './osm-pbf.reader';

interface Block {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
  groups: Array<[number, number]>;
}

/**
 * One PrimitiveBlock: the string table and scaling first, then its groups (plain nodes,
 * DenseNodes, ways, relations, each kind only when asked for). Coordinates in degrees
 * (granularity and offsets applied). The protobuf layer is Mapbox's pbf.
 */
export function decodeBlock(buf: Uint8Array, options: OsmReadOptions): OsmElement[] {
  const pbf = new Pbf(buf);
  const block = pbf.readFields<Block>(
    (tag, b, p) => {
      if (tag === 1) b.strings = p.readFields<string[]>((t, out, q) => (t === 1 ? void out.push(q.readString()) : undefined), [], p.readVarint() + p.pos);
      else if (tag === 2) {
        const len = p.readVarint();
        b.groups.push([p.pos, p.pos + len]);
        p.pos += len;
      } else if (tag === 17) b.granularity = p.readVarint();
      else if (tag === 19) b.latOffset = p.readVarint(true);
      else if (tag === 20) b.lonOffset = p.readVarint(true);
    },
    { strings: [], granularity: 100, latOffset: 0, lonOffset: 0, groups: [] },
  );
  const out: OsmElement[] = [];
  for (const [start, end] of block.groups) {
    pbf.pos = start;
    pbf.readFields(
      (tag, _: null, p) => {
        if (tag === 1 && options.nodes) out.push(node(p, block));
        else if (tag === 2 && options.nodes) dense(p, block, out);
        else if (tag === 3 && options.ways) out.push(way(p, block));
        else if (tag === 4 && options.relations) out.push(relation(p, block));
      },
      null,
      end,
    );
  }
  return out;
}

function degrees(offset: number, granularity: number, v: number): number {
  return Math.round((offset + granularity * v) / 100) / 1e7;
}

function str(b: Block, i: number): string {
  const s = b.strings[i];
  if (s === undefined) throw new Error(`string index ${i} outside the block's string table`);
  return s;
}

function tags(b: Block, keys: number[], vals: number[]): OsmTags {
  const t: OsmTags = {};
  for (let i = 0; i < keys.length; i++) t[str(b, keys[i]!)] = str(b, vals[i]!);
  return t;
}

function node(p: Pbf, b: Block): OsmNode {
  const n = p.readFields(
    (tag, r: { id: number; lat: number; lon: number; keys: number[]; vals: number[] }, q) => {
      if (tag === 1) r.id = q.readSVarint();
      else if (tag === 2) q.readPackedVarint(r.keys);
      else if (tag === 3) q.readPackedVarint(r.vals);
      else if (tag === 8) r.lat = q.readSVarint();
      else if (tag === 9) r.lon = q.readSVarint();
    },
    { id: 0, lat: 0, lon: 0, keys: [], vals: [] },
    p.readVarint() + p.pos,
  );
  return { type: 'node', id: n.id, lat: degrees(b.latOffset, b.granularity, n.lat), lng: degrees(b.lonOffset, b.granularity, n.lon), tags: tags(b, n.keys, n.vals) };
}

function dense(p: Pbf, b: Block, out: OsmElement[]): void {
  const d = p.readFields(
    (tag, r: { ids: number[]; lats: number[]; lons: number[]; kv: number[] }, q) => {
      if (tag === 1) q.readPackedSVarint(r.ids);
      else if (tag === 8) q.readPackedSVarint(r.lats);
      else if (tag === 9) q.readPackedSVarint(r.lons);
      else if (tag === 10) q.readPackedVarint(r.kv);
    },
    { ids: [], lats: [], lons: [], kv: [] },
    p.readVarint() + p.pos,
  );
  if (d.lats.length !== d.ids.length || d.lons.length !== d.ids.length) throw new Error('DenseNodes with unequal id/lat/lon counts');
  let [id, lat, lon, k] = [0, 0, 0, 0];
  for (let i = 0; i < d.ids.length; i++) {
    id += d.ids[i]!;
    lat += d.lats[i]!;
    lon += d.lons[i]!;
    const t: OsmTags = {};
    while (k < d.kv.length && d.kv[k] !== 0) {
      t[str(b, d.kv[k]!)] = str(b, d.kv[k + 1]!);
      k += 2;
    }
    k++;
    out.push({ type: 'node', id, lat: degrees(b.latOffset, b.granularity, lat), lng: degrees(b.lonOffset, b.granularity, lon), tags: t });
  }
}

function way(p: Pbf, b: Block): OsmWay {
  const w = p.readFields(
    (tag, r: { id: number; keys: number[]; vals: number[]; deltas: number[] }, q) => {
      if (tag === 1) r.id = q.readVarint();
      else if (tag === 2) q.readPackedVarint(r.keys);
      else if (tag === 3) q.readPackedVarint(r.vals);
      else if (tag === 8) q.readPackedSVarint(r.deltas);
    },
    { id: 0, keys: [], vals: [], deltas: [] },
    p.readVarint() + p.pos,
  );
  let ref = 0;
  return { type: 'way', id: w.id, refs: w.deltas.map((x) => (ref += x)), tags: tags(b, w.keys, w.vals) };
}

const MEMBER_TYPES = ['node', 'way', 'relation'] as const;

function relation(p: Pbf, b: Block): OsmRelation {
  const r = p.readFields(
    (tag, x: { id: number; keys: number[]; vals: number[]; roles: number[]; deltas: number[]; types: number[] }, q) => {
      if (tag === 1) x.id = q.readVarint();
      else if (tag === 2) q.readPackedVarint(x.keys);
      else if (tag === 3) q.readPackedVarint(x.vals);
      else if (tag === 8) q.readPackedVarint(x.roles);
      else if (tag === 9) q.readPackedSVarint(x.deltas);
      else if (tag === 10) q.readPackedVarint(x.types);
    },
    { id: 0, keys: [], vals: [], roles: [], deltas: [], types: [] },
    p.readVarint() + p.pos,
  );
  let ref = 0;
  const members = r.deltas.map((d, i): OsmMember => {
    const type = MEMBER_TYPES[r.types[i] ?? -1];
    if (!type) throw new Error(`relation ${r.id}: member type ${r.types[i]} is not node, way or relation`);
    return { type, ref: (ref += d), role: str(b, r.roles[i] ?? 0) };
  });
  return { type: 'relation', id: r.id, members, tags: tags(b, r.keys, r.vals) };
}
