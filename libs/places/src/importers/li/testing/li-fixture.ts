import { join } from 'node:path';
import { PbfNode, PbfRelation, PbfWay, writeOsmPbf } from './osm-pbf.writer';

/** Corner nodes of a box, as [id, lat, lng] going round. */
function box(firstId: number, s: number, w: number, n: number, e: number): PbfNode[] {
  return [[s, w], [s, e], [n, e], [n, w]].map(([lat, lng], i) => ({ id: firstId + i, lat: lat!, lng: lng! }));
}

const VADUZ = box(9001, 47.12, 9.5, 47.16, 9.55);
const SCHAAN = box(9011, 47.16, 9.48, 47.19, 9.54);
const AEULE = box(101, 47.1379, 9.5199, 47.1381, 9.5201);
const KIRCH = box(201, 47.2190, 9.5460, 47.2192, 9.5464);
const KIRCH_HOLE = box(211, 47.21905, 9.5461, 47.21915, 9.5462);

const addr = (street: string | null, number: string | null, extra: Record<string, string> = {}) => ({
  ...(street ? { 'addr:street': street } : {}),
  ...(number ? { 'addr:housenumber': number } : {}),
  ...extra,
});

/** Invented Liechtenstein OSM data: one of each case the importer must handle. */
export const LI_NODES: PbfNode[] = [
  { id: 1, lat: 47.14, lng: 9.5225, tags: addr('Städtle', '1', { 'addr:postcode': '9490', 'addr:city': 'Vaduz', 'addr:country': 'LI' }) },
  { id: 2, lat: 47.17, lng: 9.51, tags: addr('Landstrasse', '5', { building: 'yes' }) },
  { id: 3, lat: 47.24, lng: 9.6, tags: addr('Bahnhofstrasse', '10', { 'addr:postcode': '6800', 'addr:city': 'Feldkirch' }) },
  { id: 4, lat: 47.141, lng: 9.523, tags: addr('Städtle', null, { amenity: 'bench' }) },
  { id: 5, lat: 47.14001, lng: 9.52251, tags: addr('Städtle', '1', { 'addr:city': 'Vaduz', shop: 'bakery' }) },
  { id: 6, lat: 47.1985, lng: 9.543, tags: addr('Churer Strasse', '32', { 'addr:city': 'Nendeln', 'addr:postcode': '9485' }) },
  { id: 7, lat: 47.101, lng: 9.61, tags: { 'addr:place': 'Malbun', 'addr:housenumber': '12', 'addr:postcode': '9497' } },
  { id: 8, lat: 47.3, lng: 9.7, tags: addr('Irgendweg', '3') },
  ...VADUZ, ...SCHAAN, ...AEULE, ...KIRCH, ...KIRCH_HOLE,
];

const ring = (nodes: PbfNode[]) => [...nodes.map((n) => n.id), nodes[0]!.id];

export const LI_WAYS: PbfWay[] = [
  { id: 10, refs: ring(AEULE), tags: addr('Äulestrasse', '20', { 'addr:postcode': '9490', building: 'yes' }) },
  { id: 21, refs: ring(KIRCH) },
  { id: 22, refs: ring(KIRCH_HOLE) },
  // Vaduz's boundary in two pieces, as OSM often has it.
  { id: 901, refs: [9001, 9002, 9003] },
  { id: 902, refs: [9003, 9004, 9001] },
  { id: 911, refs: ring(SCHAAN) },
];

export const LI_RELATIONS: PbfRelation[] = [
  {
    id: 20,
    members: [{ type: 'way', ref: 21, role: 'outer' }, { type: 'way', ref: 22, role: 'inner' }],
    tags: { type: 'multipolygon', building: 'church', ...addr('Kirchstrasse', '3', { 'addr:city': 'Mauren FL', 'addr:postcode': '9493' }) },
  },
  { id: 30, members: [{ type: 'way', ref: 901, role: 'outer' }, { type: 'way', ref: 902, role: 'outer' }], tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Vaduz' } },
  { id: 31, members: [{ type: 'way', ref: 911, role: 'outer' }], tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Schaan' } },
];

/** The extract, and a later one in which Städtle 1 was renumbered 3 (a changed record). */
export function writeLiFixtures(dir: string): { first: string; later: string } {
  const first = join(dir, 'liechtenstein-test.osm.pbf');
  const later = join(dir, 'liechtenstein-test-later.osm.pbf');
  writeOsmPbf(first, { nodes: LI_NODES, ways: LI_WAYS, relations: LI_RELATIONS, plainNodes: true });
  const changed = LI_NODES.map((n) => (n.id === 1 ? { ...n, tags: { ...n.tags, 'addr:housenumber': '3' } } : n)).filter((n) => n.id === 1 || !n.tags);
  writeOsmPbf(later, { nodes: changed, ways: [], relations: [] });
  return { first, later };
}
