/**
 * Check-digit algorithms of the EU member states' VAT numbers, as the tax administrations
 * publish them (and as python-stdnum and the EC's own VIES FAQ describe them). Each takes the
 * number without the country prefix, already matched against the state's format.
 */
const digits = (s: string): number[] => [...s].map(Number);
/** Sum of digit times weight over the first `weights.length` digits. */
const weighted = (s: string, weights: number[]): number => weights.reduce((sum, w, i) => sum + Number(s[i]) * w, 0);

/** Luhn over the whole string (the last digit is the check). */
export function luhn(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10 (DE, HR): the last digit checks the others. */
export function mod11_10(s: string): boolean {
  let p = 10;
  for (const d of digits(s.slice(0, -1))) {
    let t = (d + p) % 10;
    if (t === 0) t = 10;
    p = (2 * t) % 11;
  }
  return (11 - p) % 10 === Number(s[s.length - 1]);
}

export function at(n: string): boolean {
  // U + 8 digits: the doubled digits count their cross sum.
  const d = digits(n.slice(1));
  let s = 0;
  for (let i = 0; i < 7; i++) {
    const p = d[i] * (i % 2 === 0 ? 1 : 2);
    s += Math.floor(p / 10) + (p % 10);
  }
  return (10 - ((s + 4) % 10)) % 10 === d[7];
}

export function be(n: string): boolean {
  return 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8));
}

export function bg(n: string): boolean {
  if (n.length === 9) {
    let c = weighted(n, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
    if (c === 10) c = (weighted(n, [3, 4, 5, 6, 7, 8, 9, 10]) % 11) % 10;
    return c === Number(n[8]);
  }
  // Ten digits: a personal number (EGN), a foreigner's number, or another entity.
  const egn = (weighted(n, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10 === Number(n[9]);
  const foreigner = weighted(n, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10 === Number(n[9]);
  const r = 11 - (weighted(n, [4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  const other = r !== 10 && (r === 11 ? 0 : r) === Number(n[9]);
  return egn || foreigner || other;
}

export function cy(n: string): boolean {
  if (n.startsWith('12')) return false;
  const odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
  let s = 0;
  for (let i = 0; i < 8; i++) s += i % 2 === 0 ? odd[Number(n[i])] : Number(n[i]);
  return String.fromCharCode(65 + (s % 26)) === n[8];
}

export function cz(n: string): boolean {
  if (n.length === 8) {
    if (n[0] === '9') return false;
    const r = weighted(n, [8, 7, 6, 5, 4, 3, 2]) % 11;
    return (11 - r) % 10 === Number(n[7]);
  }
  if (n.length === 9 && n[0] === '6') {
    // Individuals without a birth number: the first digit is left out of the sum.
    const c = weighted(n.slice(1, 8), [8, 7, 6, 5, 4, 3, 2]) % 11;
    return (((8 - ((10 - c) % 11)) % 10) + 10) % 10 === Number(n[8]);
  }
  return czBirthNumber(n);
}

/** A Czech birth number (rodné číslo): a real date, and since 1954 divisible by 11. */
function czBirthNumber(n: string): boolean {
  const yy = Number(n.slice(0, 2));
  let mm = Number(n.slice(2, 4));
  const dd = Number(n.slice(4, 6));
  if (mm > 70) mm -= 70;
  else if (mm > 50) mm -= 50;
  else if (mm > 20) mm -= 20;
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31) return false;
  if (n.length === 9) return yy < 54;
  const head = Number(n.slice(0, 9));
  return Number(n) % 11 === 0 || (head % 11 === 10 && n[9] === '0');
}

export const de = mod11_10;
export const hr = mod11_10;

export function dk(n: string): boolean {
  return weighted(n, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
}

export function ee(n: string): boolean {
  return (10 - (weighted(n, [3, 7, 1, 3, 7, 1, 3, 7]) % 10)) % 10 === Number(n[8]);
}

export function el(n: string): boolean {
  return (weighted(n, [256, 128, 64, 32, 16, 8, 4, 2]) % 11) % 10 === Number(n[8]);
}

export function fi(n: string): boolean {
  const r = weighted(n, [7, 9, 10, 5, 8, 4, 2]) % 11;
  if (r === 1) return false;
  return (r === 0 ? 0 : 11 - r) === Number(n[7]);
}

export function fr(n: string): boolean {
  const siren = n.slice(2);
  if (!luhn(siren)) return false;
  // Letters in the key are the newer scheme, for which only the format is published.
  if (!/^\d\d$/.test(n.slice(0, 2))) return true;
  return Number(n.slice(0, 2)) === (12 + 3 * (Number(siren) % 97)) % 97;
}

export function hu(n: string): boolean {
  return (10 - (weighted(n, [9, 7, 3, 1, 9, 7, 3]) % 10)) % 10 === Number(n[7]);
}

export function ie(n: string): boolean {
  // Old style (digit, letter or + or *, five digits, letter) is rewritten into the new one.
  const m = /^(\d)([A-Z+*])(\d{5})([A-W])$/.exec(n);
  const s = m ? `0${m[3]}${m[1]}${m[4]}` : n;
  const letters = 'WABCDEFGHIJKLMNOPQRSTUV';
  let sum = weighted(s.slice(0, 7), [8, 7, 6, 5, 4, 3, 2]);
  if (s.length === 9) sum += 9 * letters.indexOf(s[8]);
  return letters[sum % 23] === s[7];
}

export function it(n: string): boolean {
  const office = Number(n.slice(7, 10));
  if (Number(n.slice(0, 7)) === 0) return false;
  if (!(office >= 1 && office <= 100) && ![120, 121, 888, 999].includes(office)) return false;
  return luhn(n);
}

export function lt(n: string): boolean {
  if (n[n.length - 2] !== '1') return false;
  const body = n.slice(0, -1);
  const w1 = [...body].map((_, i) => (i % 9) + 1);
  let c = weighted(body, w1) % 11;
  if (c === 10) c = (weighted(body, [...body].map((_, i) => ((i + 2) % 9) + 1)) % 11) % 10;
  return c === Number(n[n.length - 1]);
}

export function lu(n: string): boolean {
  return Number(n.slice(0, 6)) % 89 === Number(n.slice(6));
}

export function lv(n: string): boolean {
  if (Number(n[0]) > 3) {
    const r = 3 - (weighted(n, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6]) % 11);
    const c = r < -1 ? r + 11 : r;
    return c !== -1 && c === Number(n[10]);
  }
  // Natural persons: the first six digits are a birth date (DDMMYY).
  const dd = Number(n.slice(0, 2));
  const mm = Number(n.slice(2, 4));
  return dd >= 1 && dd <= 31 && mm >= 1 && mm <= 12;
}

export function mt(n: string): boolean {
  return 37 - (weighted(n, [3, 4, 6, 7, 8, 9]) % 37) === Number(n.slice(6));
}

export function nl(n: string): boolean {
  // Older numbers: the BSN/RSIN eleven test; since 2020 sole traders: ISO 7064 mod 97 over "NL" + number.
  const nine = n.slice(0, 9);
  const eleven = weighted(nine, [9, 8, 7, 6, 5, 4, 3, 2, -1]) % 11 === 0;
  const alnum = [...`NL${n}`].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  return eleven || mod97(alnum) === 1;
}

function mod97(s: string): number {
  let r = 0;
  for (const c of s) r = (r * 10 + Number(c)) % 97;
  return r;
}

export function pl(n: string): boolean {
  const c = weighted(n, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
  return c !== 10 && c === Number(n[9]);
}

export function pt(n: string): boolean {
  const c = 11 - (weighted(n, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return (c >= 10 ? 0 : c) === Number(n[8]);
}

export function ro(n: string): boolean {
  const padded = n.padStart(10, '0');
  const c = ((weighted(padded, [7, 5, 3, 2, 1, 7, 5, 3, 2]) * 10) % 11) % 10;
  return c === Number(padded[9]);
}

export function se(n: string): boolean {
  return n.endsWith('01') && luhn(n.slice(0, 10));
}

export function si(n: string): boolean {
  const c = 11 - (weighted(n, [8, 7, 6, 5, 4, 3, 2]) % 11);
  if (c === 11) return false;
  return (c === 10 ? 0 : c) === Number(n[7]);
}

export function sk(n: string): boolean {
  return BigInt(n) % 11n === 0n;
}

export function es(n: string): boolean {
  const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';
  if (/^\d{8}[A-Z]$/.test(n)) return dniLetters[Number(n.slice(0, 8)) % 23] === n[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(n)) return dniLetters[Number('XYZ'.indexOf(n[0]) + n.slice(1, 8)) % 23] === n[8];
  if (/^[KLM]\d{7}[A-Z]$/.test(n)) return dniLetters[Number(n.slice(1, 8)) % 23] === n[8];
  // Legal entities: a Luhn-like sum over the seven digits, written as a digit or a letter.
  const d = digits(n.slice(1, 8));
  let s = 0;
  for (let i = 0; i < 7; i++) {
    const p = i % 2 === 0 ? d[i] * 2 : d[i];
    s += Math.floor(p / 10) + (p % 10);
  }
  const c = (10 - (s % 10)) % 10;
  const letter = 'JABCDEFGHI'[c];
  if ('ABEH'.includes(n[0])) return n[8] === String(c);
  if ('KPQSNW'.includes(n[0])) return n[8] === letter;
  return n[8] === String(c) || n[8] === letter;
}

/** Northern Ireland numbers follow the UK scheme: mod 97, or the 2010 "mod 9755" variant. */
export function xi(n: string): boolean {
  if (/^(GD|HA)\d{3}$/.test(n)) return n.startsWith('GD') ? Number(n.slice(2)) < 500 : Number(n.slice(2)) >= 500;
  const s = weighted(n.slice(0, 7), [8, 7, 6, 5, 4, 3, 2]) + Number(n.slice(7, 9));
  return s % 97 === 0 || (s + 55) % 97 === 0;
}
