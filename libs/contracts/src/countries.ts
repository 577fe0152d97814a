export const COUNTRY_CODES = ['SK', 'CZ', 'PL', 'AT', 'CH', 'LI'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** `formatted_country`: the country's own name, as on an envelope posted inside it. */
export const COUNTRY_NAMES: Record<CountryCode, string> = {
  SK: 'Slovensko',
  CZ: 'Česko',
  PL: 'Polska',
  AT: 'Österreich',
  CH: 'Schweiz',
  LI: 'Liechtenstein',
};

export function isCountryCode(v: string): v is CountryCode {
  return (COUNTRY_CODES as readonly string[]).includes(v);
}

/**
 * `postal_code` as the country writes it on an envelope, the form every area answers with and
 * the widget copies into a form: `760 01` (CZ, SK), `67-416` (PL), four digits (AT, CH, LI; a
 * `CH-`/`FL-` prefix dropped). Pure; a code that fits no pattern is returned trimmed. Search
 * input is not normalized with this: users may type either form.
 */
export function formatPostalCode(country: CountryCode, code: string): string {
  const compact = code.replace(/[\s-]+/g, '');
  if ((country === 'CZ' || country === 'SK') && /^\d{5}$/.test(compact)) return `${compact.slice(0, 3)} ${compact.slice(3)}`;
  if (country === 'PL' && /^\d{5}$/.test(compact)) return `${compact.slice(0, 2)}-${compact.slice(2)}`;
  const four = /^(?:[A-Z]{1,2})?(\d{4})$/i.exec(compact);
  if ((country === 'AT' || country === 'CH' || country === 'LI') && four) return four[1]!;
  return code.trim();
}

/** A value as an error message about a country shows it: its first 20 characters, then `…` (not a copy of whatever was sent). */
export function shortValue(v: string | undefined): string {
  const s = String(v);
  return s.length > 20 ? `${s.slice(0, 20)}…` : s;
}
