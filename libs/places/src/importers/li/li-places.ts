import { LI_MUNICIPALITIES } from '../geonames/geonames-names';

/**
 * Liechtenstein's postal codes (Swiss Post list) with the place written after them and the
 * municipality they serve. Used to place an OSM address that has a postcode but no usable
 * `addr:city`, and to fill the postcode of one that has only the place.
 */
export const LI_POSTAL_CODES: Readonly<Record<string, { place: string; municipality: string }>> = {
  '9485': { place: 'Nendeln', municipality: 'Eschen' },
  '9486': { place: 'Schaanwald', municipality: 'Mauren' },
  '9487': { place: 'Gamprin-Bendern', municipality: 'Gamprin' },
  '9488': { place: 'Schellenberg', municipality: 'Schellenberg' },
  '9490': { place: 'Vaduz', municipality: 'Vaduz' },
  '9491': { place: 'Ruggell', municipality: 'Ruggell' },
  '9492': { place: 'Eschen', municipality: 'Eschen' },
  '9493': { place: 'Mauren', municipality: 'Mauren' },
  '9494': { place: 'Schaan', municipality: 'Schaan' },
  '9495': { place: 'Triesen', municipality: 'Triesen' },
  '9496': { place: 'Balzers', municipality: 'Balzers' },
  '9497': { place: 'Triesenberg', municipality: 'Triesenberg' },
  '9498': { place: 'Planken', municipality: 'Planken' },
};

/** Villages and hamlets (Ortsteile) that OSM mappers write as `addr:city`, with their municipality. */
export const LI_LOCALITIES: Readonly<Record<string, string>> = {
  Nendeln: 'Eschen',
  Schaanwald: 'Mauren',
  Bendern: 'Gamprin',
  'Gamprin-Bendern': 'Gamprin',
  Steg: 'Triesenberg',
  Malbun: 'Triesenberg',
  Masescha: 'Triesenberg',
  Silum: 'Triesenberg',
  Gaflei: 'Triesenberg',
  Rotenboden: 'Triesenberg',
  Mäls: 'Balzers',
};

export interface LiMunicipality {
  name: string;
  bfs: string;
  region: 'oberland' | 'unterland';
}

/** `Balzers (FL)`, `Mauren FL`, `vaduz` -> the name as the lists write it. */
export function liPlaceName(raw: string): string {
  const t = raw.trim().replace(/\s*\(?\bFL\)?$/, '').trim();
  const all = [...Object.keys(LI_MUNICIPALITIES), ...Object.keys(LI_LOCALITIES)];
  return all.find((n) => n.toLowerCase() === t.toLowerCase()) ?? t;
}

export function liMunicipalityByName(name: string): LiMunicipality | null {
  const m = LI_MUNICIPALITIES[name];
  return m ? { name, ...m } : null;
}

/** The municipality a place name (municipality or Ortsteil) belongs to. */
export function liMunicipalityOfPlace(place: string): LiMunicipality | null {
  const name = liPlaceName(place);
  return liMunicipalityByName(LI_LOCALITIES[name] ?? name);
}

/** The one postal code of a place, when the place has exactly one. */
export function liPostalCodeOfPlace(place: string, municipality: LiMunicipality): string | null {
  const codes = Object.entries(LI_POSTAL_CODES).filter(([, p]) => p.municipality === municipality.name);
  const exact = codes.find(([, p]) => p.place === place || p.place.split('-').includes(place));
  if (exact) return exact[0];
  return codes.length === 1 ? codes[0]![0] : null;
}
