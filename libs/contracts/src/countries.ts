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
