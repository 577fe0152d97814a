import { FbtTranslationGroup } from '@lookup/contracts';
import { ANY_VARIATION, defaultVariations, fileType } from './fbt-variations';

/** What the export needs of one approved translation. */
export interface ApprovedTranslation {
  id: number;
  phraseHash: string;
  translation: string;
  tokens: string[];
  types: number[];
  variations: number[];
  votes: number;
  decidedAt: string | null;
}

/**
 * One locale's approved translations as fbt's translate step reads them (a translation file
 * for `fbt-translate --translations`): `{"fb-locale", translations: {<text hash>: {tokens,
 * types, translations: [{translation, variations: {<token index>: <variation>}}]}}}`.
 *
 * Per phrase the token list is the longest one among its translations; every translation's
 * variations are re-indexed by token name into it. `types` are fbt's variation masks (28
 * number, 3 gender; see fbt-variations.ts), not the API's 1/2/3, and a token whose variation
 * is "any" (0) is left out of the translation's `variations`, which is how fbt writes its
 * default entry. Translations that fbt would file under the same entry (the same variations,
 * counting "any" and the locale's default variations as one, as fbt does; two there make
 * fbt's translate step fail with "Unexpected duplicate key") are exported once: the one with
 * more votes wins, then the one decided last, then the newest.
 */
export function buildTranslationGroup(locale: string, rows: ApprovedTranslation[]): FbtTranslationGroup {
  const [numberDefault, genderDefault] = defaultVariations(locale);
  const fbtDefault = (v: number) => v === numberDefault || v === genderDefault;
  const byPhrase = new Map<string, ApprovedTranslation[]>();
  for (const r of rows) byPhrase.set(r.phraseHash, [...(byPhrase.get(r.phraseHash) ?? []), r]);
  const translations: FbtTranslationGroup['translations'] = {};
  for (const hash of [...byPhrase.keys()].sort()) {
    const list = [...byPhrase.get(hash)!].sort(preferred);
    const widest = list.reduce((a, b) => (b.tokens.length > a.tokens.length ? b : a), list[0]);
    const tokens = [...widest.tokens];
    const types = [...widest.types];
    const seen = new Set<string>();
    const out: FbtTranslationGroup['translations'][string]['translations'] = [];
    for (const t of list) {
      const variations: Record<string, number> = {};
      t.tokens.forEach((name, i) => {
        let at = tokens.indexOf(name);
        if (at < 0) {
          tokens.push(name);
          types.push(t.types[i]);
          at = tokens.length - 1;
        }
        if (t.variations[i] !== ANY_VARIATION) variations[String(at)] = t.variations[i];
      });
      const key = JSON.stringify(Object.entries(variations).filter(([, v]) => !fbtDefault(v)));
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ translation: t.translation, variations });
    }
    translations[hash] = { tokens, types: types.map(fileType), translations: out };
  }
  return { 'fb-locale': locale, translations };
}

function preferred(a: ApprovedTranslation, b: ApprovedTranslation): number {
  if (a.votes !== b.votes) return b.votes - a.votes;
  const da = a.decidedAt ?? '';
  const db = b.decidedAt ?? '';
  if (da !== db) return da < db ? 1 : -1;
  return b.id - a.id;
}
