/**
 * Organisation id numbers (IČO): 8 digits in both countries, published zero-padded
 * (`00177041`) and typed in every way (`177041`, `001 77 041`).
 */
export const CIN_LENGTH = 8;

export function cinDigits(text: string): string {
  return text.replace(/\s+/g, '');
}

/** The stored form: 8 digits, zero-padded; null when the text is no id number. */
export function padCin(text: string | number | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const d = cinDigits(String(text));
  if (!/^\d{1,10}$/.test(d)) return null;
  const stripped = d.replace(/^0+/, '');
  if (stripped.length === 0 || stripped.length > CIN_LENGTH) return null;
  return stripped.padStart(CIN_LENGTH, '0');
}

/** Without leading zeros: `00177041` and `177041` meet here. */
export function cinKey(text: string): string {
  return cinDigits(text).replace(/^0+/, '');
}
