import { LiMunicipality, liMunicipalityByName, liPlaceName } from './li-places';
import { Area, makeArea } from './osm-boundaries';
import { OsmTags, readOsmPbf } from './osm-pbf/osm-pbf.reader';

/** An OSM element carrying `addr:*` tags, with its position (a way's or relation's = centroid of its nodes). */
export interface OsmAddressCandidate {
  /** `n`, `w` or `r` + the OSM id: the element as OSM names it (`w123`). */
  key: string;
  tags: OsmTags;
  lat: number | null;
  lng: number | null;
}

export interface OsmAddressScan {
  candidates: OsmAddressCandidate[];
  /** Liechtenstein municipality areas from the extract's admin_level=8 boundary relations. */
  areas: Area<LiMunicipality>[];
}

export function hasAddressTags(tags: OsmTags): boolean {
  for (const k in tags) if (k.startsWith('addr:')) return true;
  return false;
}

/**
 * Reads an OSM PBF three times, each pass decoding one element kind, because PBF stores nodes,
 * then ways, then relations and a way's position needs nodes read before it: relations first
 * (which ways bound a municipality, which ways make an address relation), then ways (which nodes
 * they need), then nodes. Memory holds only address elements and the nodes they need, not the
 * whole extract.
 */
export async function scanOsmAddresses(path: string): Promise<OsmAddressScan> {
  const boundaries: { municipality: LiMunicipality; ways: number[] }[] = [];
  const addrRelations: { id: number; tags: OsmTags; ways: number[] }[] = [];
  for await (const els of readOsmPbf(path, { relations: true })) {
    for (const e of els) {
      if (e.type !== 'relation') continue;
      const ways = e.members.filter((m) => m.type === 'way');
      const municipality = e.tags['boundary'] === 'administrative' && e.tags['admin_level'] === '8' ? liMunicipalityByName(liPlaceName(e.tags['name'] ?? '')) : null;
      if (municipality) boundaries.push({ municipality, ways: ways.map((m) => m.ref) });
      if (hasAddressTags(e.tags)) addrRelations.push({ id: e.id, tags: e.tags, ways: ways.filter((m) => m.role !== 'inner').map((m) => m.ref) });
    }
  }
  const wantedWays = new Set([...boundaries, ...addrRelations].flatMap((r) => r.ways));
  const wayRefs = new Map<number, number[]>();
  const addrWays: { id: number; tags: OsmTags; refs: number[] }[] = [];
  for await (const els of readOsmPbf(path, { ways: true })) {
    for (const e of els) {
      if (e.type !== 'way') continue;
      if (wantedWays.has(e.id)) wayRefs.set(e.id, e.refs);
      if (hasAddressTags(e.tags)) addrWays.push({ id: e.id, tags: e.tags, refs: e.refs });
    }
  }
  const wantedNodes = new Set<number>();
  for (const refs of wayRefs.values()) for (const r of refs) wantedNodes.add(r);
  for (const w of addrWays) for (const r of w.refs) wantedNodes.add(r);
  const coords = new Map<number, [number, number]>();
  const candidates: OsmAddressCandidate[] = [];
  for await (const els of readOsmPbf(path, { nodes: true })) {
    for (const e of els) {
      if (e.type !== 'node') continue;
      if (wantedNodes.has(e.id)) coords.set(e.id, [e.lat, e.lng]);
      if (hasAddressTags(e.tags)) candidates.push({ key: `n${e.id}`, tags: e.tags, lat: e.lat, lng: e.lng });
    }
  }
  for (const w of addrWays) candidates.push({ key: `w${w.id}`, tags: w.tags, ...centroid(w.refs, coords) });
  for (const r of addrRelations) candidates.push({ key: `r${r.id}`, tags: r.tags, ...centroid(r.ways.flatMap((id) => wayRefs.get(id) ?? []), coords) });
  const areas = boundaries.map((b) => makeArea(b.municipality, b.ways.map((id) => line(wayRefs.get(id) ?? [], coords))));
  return { candidates, areas };
}

/** Mean of the distinct nodes found (a closed way repeats its first node); null when none is in the extract. */
function centroid(refs: number[], coords: Map<number, [number, number]>): { lat: number | null; lng: number | null } {
  let n = 0;
  let lat = 0;
  let lng = 0;
  for (const id of new Set(refs)) {
    const c = coords.get(id);
    if (!c) continue;
    n++;
    lat += c[0];
    lng += c[1];
  }
  return n ? { lat: Math.round((lat / n) * 1e7) / 1e7, lng: Math.round((lng / n) * 1e7) / 1e7 } : { lat: null, lng: null };
}

function line(refs: number[], coords: Map<number, [number, number]>): number[] {
  const out: number[] = [];
  for (const id of refs) {
    const c = coords.get(id);
    if (c) out.push(c[1], c[0]);
  }
  return out;
}
