import { formatPostalCode } from '@lookup/contracts';
import { BusinessDoc } from './business.doc';

/** `746 01`, the form places answer with too; null when the register gives none. */
export function postalCodeOf(d: Pick<BusinessDoc, 'country' | 'postal_code'>): string | null {
  return d.postal_code ? formatPostalCode(d.country, d.postal_code) : null;
}

/** `79/22a`, `265`, `c. ev. 59/3`, or the orientation number alone. */
export function formatNumber(d: Pick<BusinessDoc, 'street_number' | 'building_number'>): string {
  const sn = d.street_number ?? '';
  if (sn && d.building_number) return `${sn}/${d.building_number}`;
  return sn || d.building_number;
}

/** With a street `Lihovarská 79/22a`; without one the part of the municipality takes its place. */
export function formatStreet(d: Pick<BusinessDoc, 'street' | 'street_number' | 'building_number' | 'district' | 'municipality'>): string {
  const num = formatNumber(d);
  const name = d.street || d.district || (num ? d.municipality : '');
  return [name, num].filter((s) => s !== '').join(' ');
}

export function formatAddress(d: BusinessDoc): string {
  const street = formatStreet(d);
  const town = [postalCodeOf(d) ?? '', d.municipality].filter((s) => s !== '').join(' ');
  return [street, town].filter((s) => s !== '').join(', ');
}
