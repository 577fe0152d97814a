/** An address in parts, as the registers give it. */
export interface AddressParts {
  street: string;
  street_number: string | null;
  building_number: string;
  postal_code: string;
  municipality: string;
  district: string;
}

export const EMPTY_ADDRESS: AddressParts = { street: '', street_number: null, building_number: '', postal_code: '', municipality: '', district: '' };

/** `1060`, `1060/12`, `1060/12a`, `č.ev. 59`, `č. ev. 59/3`. */
const NUMBER = /^(?:(č\.?\s*ev\.?|č\.?\s*p\.?)\s*)?(\d+)(?:\/(\d+\s*[a-zA-Z]?))?$/;

/** Splits `Lihovarská 1060/12` (or `Podvihov 59`) into a name and numbers. */
export function splitStreet(text: string): Pick<AddressParts, 'street' | 'street_number' | 'building_number'> {
  const t = text.trim();
  const m = /^(.*?)\s+((?:č\.?\s*ev\.?\s*|č\.?\s*p\.?\s*)?\d+(?:\/\d+\s*[a-zA-Z]?)?)$/.exec(t);
  if (!m) return { street: t, street_number: null, building_number: '' };
  const n = NUMBER.exec(m[2]);
  if (!n) return { street: t, street_number: null, building_number: '' };
  const evidence = n[1] !== undefined && /ev/.test(n[1]);
  return { street: m[1].trim(), street_number: evidence ? `č. ev. ${n[2]}` : n[2], building_number: (n[3] ?? '').replace(/\s+/g, '') };
}

/**
 * RES `TEXTADR` when no address point is joined: `Lihovarská 1060/12, Radvanice, 71600 Ostrava`
 * or `Podvihov 59, 74701 Opava`.
 */
export function parseTextAddress(text: string): AddressParts {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return { ...EMPTY_ADDRESS };
  const last = parts[parts.length - 1];
  const town = /^(\d{3}\s?\d{2})\s+(.+)$/.exec(last);
  const postal_code = town ? town[1].replace(/\s/g, '') : '';
  const municipality = (town ? town[2] : last).trim();
  const head = parts.length > 1 ? splitStreet(parts[0]) : { street: '', street_number: null, building_number: '' };
  const middle = parts.length > 2 ? parts[1] : '';
  // Text cannot tell `Cihelní 265` (a street) from `Podvihov 59` (a part of a village without
  // streets); only a name equal to the municipality's is surely not a street.
  const isPart = head.street !== '' && head.street === municipality;
  return {
    street: isPart ? '' : head.street,
    street_number: head.street_number,
    building_number: head.building_number,
    postal_code,
    municipality,
    district: isPart ? head.street : middle,
  };
}
