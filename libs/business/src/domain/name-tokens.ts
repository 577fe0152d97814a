import { fold } from './text-fold';

/**
 * Legal-form suffixes written many ways in the registers (`s.r.o.`, `s. r. o.`, `spol. s r.o.`,
 * `a.s.`, `a. s.`, ...): each variant becomes one token, so every spelling finds every other.
 * Patterns run on folded text; each needs its dots so that ordinary words (`a`, `s`) stay words.
 */
const LEGAL_FORMS: Array<{ token: string; re: RegExp }> = [
  { token: 'sro', re: /spol\s*\.\s*s\s*r\s*\.?\s*o\b\.?|spolecnost\s+s\s+rucenim\s+omezenym|spolocnost\s+s\s+rucenim\s+obmedzenym|s\s*\.\s*r\s*\.\s*o\b\.?|s\s+r\s*\.\s*o\b\.?/y },
  { token: 'as', re: /akciova\s+spolecnost|akciova\s+spolocnost|a\s*\.\s*s\b\.?/y },
  { token: 'vos', re: /v\s*\.\s*o\s*\.\s*s\b\.?|verejna\s+obchodni\s+spolecnost/y },
  { token: 'ks', re: /k\s*\.\s*s\b\.?|komanditni\s+spolecnost/y },
  { token: 'ops', re: /o\s*\.\s*p\s*\.\s*s\b\.?/y },
  { token: 'zs', re: /z\s*\.\s*s\b\.?/y },
  { token: 'sp', re: /s\s*\.\s*p\b\.?/y },
  { token: 'se', re: /s\s*\.\s*e\b\.?/y },
];

/** Partial suffixes at the end of a query being typed (`firma s. r`, `firma spol. s`). */
const TYPING_FORMS: Array<{ token: string; re: RegExp }> = [
  { token: 'sro', re: /spol\s*\.(\s*s(\s*\.?\s*r\s*\.?)?)?\s*$/y },
  { token: 'sr', re: /s\s*\.\s*r\s*\.?\s*$/y },
];

export interface NameSpan {
  /** The index token: folded word or a legal-form token. */
  token: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/uy;

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

/** Tokens of a name with their offsets in the original text (folding keeps offsets). */
export function nameSpans(text: string, typing = false): NameSpan[] {
  const f = fold(text);
  const out: NameSpan[] = [];
  let i = 0;
  while (i < f.length) {
    if (!isWordChar(f[i])) {
      i++;
      continue;
    }
    const atWordStart = i === 0 || !isWordChar(f[i - 1]);
    let matched: NameSpan | null = null;
    if (atWordStart && mayStartLegalForm(f, i)) {
      for (const lf of typing ? [...LEGAL_FORMS, ...TYPING_FORMS] : LEGAL_FORMS) {
        lf.re.lastIndex = i;
        const m = lf.re.exec(f);
        if (m) {
          matched = { token: lf.token, start: i, end: trimEnd(f, i + m[0].length) };
          break;
        }
      }
    }
    if (matched) {
      out.push(matched);
      i = Math.max(matched.end, i + 1);
      continue;
    }
    WORD.lastIndex = i;
    const w = WORD.exec(f);
    const end = w ? i + w[0].length : i + 1;
    out.push({ token: f.slice(i, end), start: i, end });
    i = end;
  }
  return out;
}

const LONG_STARTS = ['spol', 'akciov', 'verejn', 'komandit'];

/** Cheap test before the patterns: most words (3.5 M names) cannot start a legal form. */
function mayStartLegalForm(f: string, i: number): boolean {
  if (!'savkoz'.includes(f[i])) return false;
  const next = f[i + 1];
  return next === '.' || next === ' ' || next === undefined || LONG_STARTS.some((w) => f.startsWith(w, i));
}

function trimEnd(f: string, end: number): number {
  while (end > 0 && /\s/.test(f[end - 1])) end--;
  return end;
}

export function nameTokens(text: string): string[] {
  return nameSpans(text).map((s) => s.token);
}

/** The whole name as one sortable key: its tokens joined by single spaces. */
export function nameKey(text: string): string {
  return nameTokens(text).join(' ');
}
