import { formatPostalCode } from '@lookup/contracts';
import { PlaceDoc } from './place.doc';

export interface FormattedAddress {
  formatted_address: string;
  formatted_street: string;
  formatted_number: string;
}

/**
 * Postal convention per country. CZ/SK: `Lihovarská 79/22a, 746 01 Opava` (conscription /
 * orientation number + letter), `Cihelní 265` without an orientation number, an evidence number
 * as `č. ev. 59`, and where a village has no streets the part of the municipality takes the
 * street's place (`Podvihov 59`). PL/AT/CH/LI write the whole number after the street and the
 * postal code before the town: `ul. Marszałkowska 12/3, 00-950 Warszawa` (the street keeps its
 * TERYT prefix), `Hauptstraße 12/3/5, 1010 Wien`, `Bahnhofstrasse 1, 8001 Zürich`, `Städtle 1,
 * 9490 Vaduz`, a village without streets as `Zalesie 12, 05-500 Piaseczno`. Pure: the same doc
 * always gives the same strings.
 */
export function formatAddress(d: PlaceDoc): FormattedAddress {
  const formatted_number = formatNumber(d);
  const place = d.street ?? d.district ?? d.municipality ?? '';
  const formatted_street = joinNonEmpty(' ', place, formatted_number);
  const town = joinNonEmpty(' ', postalCodeOf(d) ?? '', townOf(d));
  return { formatted_address: joinNonEmpty(', ', formatted_street, town), formatted_street, formatted_number };
}

/**
 * The name after the postal code: the postal place where the register gives one (Praha 9, a
 * Swiss PLZ name); in PL/AT/CH/LI a street lies in its locality (PL miejscowość, AT Ortschaft,
 * written as `district`), so that is the town; otherwise, and in CZ/SK (where the part of the
 * municipality is not part of the address), the municipality.
 */
function townOf(d: PlaceDoc): string {
  if (d.postal_place) return d.postal_place;
  if (d.street && d.district && d.country !== 'CZ' && d.country !== 'SK') return d.district;
  return d.municipality ?? '';
}

/** `79/22a`, `265`, `č. ev. 59`; a lone orientation number where no conscription number exists. */
export function formatNumber(d: Pick<PlaceDoc, 'street_number' | 'number_kind' | 'building_number'>): string {
  const main = d.street_number ? (d.number_kind === 'ce' ? `č. ev. ${d.street_number}` : d.street_number) : '';
  if (main && d.building_number) return `${main}/${d.building_number}`;
  return main || (d.building_number ?? '');
}

/** The document's postal code in its country's written form (`746 01`, `00-950`, `1010`), null when it has none. */
export function postalCodeOf(d: Pick<PlaceDoc, 'country' | 'postal_code'>): string | null {
  return d.postal_code ? formatPostalCode(d.country, d.postal_code) : null;
}

function joinNonEmpty(sep: string, ...parts: string[]): string {
  return parts.filter((p) => p !== '').join(sep);
}
