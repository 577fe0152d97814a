import { ZONE_TAB } from './timezones.data';

interface ZonePoint {
  lat: number;
  lng: number;
  zone: string;
}

let byCountry: Map<string, ZonePoint[]> | null = null;

function zones(): Map<string, ZonePoint[]> {
  if (byCountry) return byCountry;
  byCountry = new Map();
  for (const entry of ZONE_TAB.split(',')) {
    const [cc, lat, lng, zone] = entry.trim().split(' ');
    if (!zone) continue;
    const list = byCountry.get(cc) ?? [];
    list.push({ lat: Number(lat), lng: Number(lng), zone });
    byCountry.set(cc, list);
  }
  return byCountry;
}

/**
 * The IANA zone of a place: its country's only zone, or, in countries with several, the one
 * whose reference city is nearest (an approximation near zone borders). Null for no country.
 */
export function timezoneFor(countryCode: string | null, lat: number | null, lng: number | null): string | null {
  if (!countryCode) return null;
  const list = zones().get(countryCode.toUpperCase());
  if (!list || list.length === 0) return null;
  if (list.length === 1 || lat === null || lng === null) return list[0].zone;
  let best = list[0];
  let bestD = Infinity;
  const cos = Math.cos((lat * Math.PI) / 180);
  for (const p of list) {
    const dLng = Math.abs(lng - p.lng) > 180 ? 360 - Math.abs(lng - p.lng) : lng - p.lng;
    const d = (lat - p.lat) ** 2 + (dLng * cos) ** 2;
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best.zone;
}
