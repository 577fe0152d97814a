import { ViesCountryCode } from '@lookup/contracts';
import * as check from './vat-checksums';

interface StateRule {
  format: RegExp;
  /** Undefined: only the format is published (or reliable), so only the format is checked. */
  checksum?: (n: string) => boolean;
}

/** Formats per member state (EC VIES FAQ) and their check-digit algorithms. */
export const VAT_RULES: Record<ViesCountryCode, StateRule> = {
  AT: { format: /^U\d{8}$/, checksum: check.at },
  BE: { format: /^[01]\d{9}$/, checksum: check.be },
  BG: { format: /^\d{9,10}$/, checksum: check.bg },
  CY: { format: /^[013459]\d{7}[A-Z]$/, checksum: check.cy },
  CZ: { format: /^\d{8,10}$/, checksum: check.cz },
  DE: { format: /^[1-9]\d{8}$/, checksum: check.de },
  DK: { format: /^[1-9]\d{7}$/, checksum: check.dk },
  EE: { format: /^10\d{7}$/, checksum: check.ee },
  EL: { format: /^\d{9}$/, checksum: check.el },
  ES: { format: /^([A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/, checksum: check.es },
  FI: { format: /^\d{8}$/, checksum: check.fi },
  FR: { format: /^[0-9A-HJ-NP-Z]{2}\d{9}$/, checksum: check.fr },
  HR: { format: /^\d{11}$/, checksum: check.hr },
  HU: { format: /^\d{8}$/, checksum: check.hu },
  IE: { format: /^(\d{7}[A-W][AHW]?|\d[A-Z+*]\d{5}[A-W])$/, checksum: check.ie },
  IT: { format: /^\d{11}$/, checksum: check.it },
  LT: { format: /^(\d{9}|\d{12})$/, checksum: check.lt },
  LU: { format: /^\d{8}$/, checksum: check.lu },
  LV: { format: /^\d{11}$/, checksum: check.lv },
  MT: { format: /^[1-9]\d{7}$/, checksum: check.mt },
  NL: { format: /^\d{9}B\d{2}$/, checksum: check.nl },
  PL: { format: /^\d{10}$/, checksum: check.pl },
  PT: { format: /^[1-9]\d{8}$/, checksum: check.pt },
  RO: { format: /^[1-9]\d{1,9}$/, checksum: check.ro },
  SE: { format: /^\d{10}01$/, checksum: check.se },
  SI: { format: /^[1-9]\d{7}$/, checksum: check.si },
  SK: { format: /^[1-9]\d[2346-9]\d{7}$/, checksum: check.sk },
  XI: { format: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, checksum: check.xi },
};

/** Member states whose numbers get only the format check. */
export const FORMAT_ONLY_STATES = (Object.keys(VAT_RULES) as ViesCountryCode[]).filter((c) => !VAT_RULES[c].checksum);

/** Separators out, upper case, and the state's prefix (or GR for Greece) dropped when the caller included it. */
export function compactVatNumber(country: ViesCountryCode, raw: string): string {
  let n = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  for (const prefix of country === 'EL' ? ['EL', 'GR'] : [country]) {
    if (n.startsWith(prefix) && VAT_RULES[country].format.test(n.slice(2))) n = n.slice(2);
  }
  return n;
}

export type VatFormatVerdict = { ok: true; number: string } | { ok: false; number: string; reason: 'format' | 'checksum' };

export function checkVatFormat(country: ViesCountryCode, raw: string): VatFormatVerdict {
  const number = compactVatNumber(country, raw);
  const rule = VAT_RULES[country];
  if (!rule.format.test(number)) return { ok: false, number, reason: 'format' };
  if (rule.checksum && !rule.checksum(number)) return { ok: false, number, reason: 'checksum' };
  return { ok: true, number };
}
