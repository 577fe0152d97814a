/**
 * Municipality areas from OSM boundary relations, for addresses that name neither a known place
 * nor a postcode. The relation's member ways are used as loose segments with the even-odd rule:
 * a point is inside when a ray from it crosses the boundary an odd number of times, which needs
 * no ring assembly and handles exclaves and holes alike.
 */
export interface Area<T> {
  value: T;
  /** Flat [lng1, lat1, lng2, lat2, ...] per member way. */
  lines: number[][];
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

export function makeArea<T>(value: T, lines: number[][]): Area<T> {
  const box = { minLat: Infinity, maxLat: -Infinity, minLng: Infinity, maxLng: -Infinity };
  for (const l of lines) {
    for (let i = 0; i < l.length; i += 2) {
      box.minLng = Math.min(box.minLng, l[i]!);
      box.maxLng = Math.max(box.maxLng, l[i]!);
      box.minLat = Math.min(box.minLat, l[i + 1]!);
      box.maxLat = Math.max(box.maxLat, l[i + 1]!);
    }
  }
  return { value, lines, box };
}

export function contains<T>(a: Area<T>, lat: number, lng: number): boolean {
  const b = a.box;
  if (lat < b.minLat || lat > b.maxLat || lng < b.minLng || lng > b.maxLng) return false;
  let inside = false;
  for (const l of a.lines) {
    for (let i = 2; i < l.length; i += 2) {
      const [x1, y1, x2, y2] = [l[i - 2]!, l[i - 1]!, l[i]!, l[i + 1]!];
      if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
    }
  }
  return inside;
}

/** The first area containing the point. */
export function areaAt<T>(areas: Area<T>[], lat: number, lng: number): T | null {
  for (const a of areas) if (contains(a, lat, lng)) return a.value;
  return null;
}
