import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { RES_COLUMNS, ResColumn } from '@lookup/business';

/**
 * A synthetic Czech RES (`res_data.csv`, the official columns) of any size, for the benchmark
 * only: deterministic (seeded), with the register's mix: mostly sole traders (first name +
 * surname), companies with 1-3 words and every written form of their legal-form suffix,
 * about a third terminated. Names come from generated syllable words, so the vocabulary is
 * large (tens of thousands of words) like a real register's.
 */
const SYL = ['ba', 'ce', 'di', 'fo', 'gu', 'ha', 'je', 'ki', 'lo', 'mu', 'na', 'pe', 'ri', 'so', 'tu', 'va', 'ze', 'ko', 'mi', 'ra', 'st', 'vr', 'ch', 'ště', 'ná', 'ří', 'lé', 'čo', 'ďá', 'ňu'];
const SUFFIX = ['s.r.o.', 's. r. o.', 'spol. s r.o.', 'a.s.', 'a. s.', 'v.o.s.', 'z.s.', 'družstvo'];
const FIRST = ['Jan', 'Petr', 'Josef', 'Pavel', 'Martin', 'Tomáš', 'Jiří', 'Marie', 'Jana', 'Eva', 'Hana', 'Anna', 'Lucie', 'Lenka', 'Věra', 'Karel', 'Milan', 'Zdeněk', 'Jaroslav', 'Michal'];
const TOWNS = [['Praha', '11000'], ['Brno', '60200'], ['Ostrava', '70200'], ['Plzeň', '30100'], ['Opava', '74601'], ['Jihlava', '58601'], ['Zlín', '76001'], ['Kladno', '27201']];

/** xorshift32: fast, deterministic. */
export function rng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export function word(r: () => number, cap = true): string {
  const n = 2 + Math.floor(r() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYL[Math.floor(r() * SYL.length)];
  return cap ? w[0].toUpperCase() + w.slice(1) : w;
}

export interface GeneratedRow {
  ico: string;
  name: string;
}

/** Writes `rows` RES rows; calls `sample` for every 1000th row (the benchmark's query pool). */
export async function writeSyntheticRes(path: string, rows: number, sample: (row: GeneratedRow) => void): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const r = rng(20240131);
  const row: Partial<Record<ResColumn, string>> = {};
  out.write(RES_COLUMNS.join(',') + '\n');
  for (let i = 0; i < rows; i++) {
    const sole = r() < 0.65;
    const name = sole
      ? `${FIRST[Math.floor(r() * FIRST.length)]} ${word(r)}${r() < 0.5 ? 'ová' : ''}`
      : `${word(r)}${r() < 0.6 ? ' ' + word(r) : ''}${r() < 0.2 ? ' ' + word(r) : ''} ${SUFFIX[Math.floor(r() * SUFFIX.length)]}`;
    const ico = String(10000 + i * 7).padStart(8, '0');
    const [obec, psc] = TOWNS[i % TOWNS.length];
    row.ICO = ico;
    row.DDATVZN = `${1990 + (i % 34)}-0${1 + (i % 9)}-1${i % 10}`;
    row.DDATZAN = r() < 0.33 ? '2020-12-31' : '';
    row.FORMA = sole ? '101' : '112';
    row.KATPO = sole ? '110' : '120';
    row.NACE = '62010';
    row.FIRMA = /[",]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;
    row.KODADM = String(1000000 + i);
    row.PSC = psc;
    row.OBEC_TEXT = obec;
    row.ULICE_TEXT = `${word(r)}ova`;
    row.TYPCDOM = '1';
    row.CDOM = String(1 + (i % 3000));
    row.COR = i % 2 ? String(1 + (i % 90)) : '';
    row.DATPLAT = '2024-01-31';
    if (i % 1000 === 0) sample({ ico, name });
    if (!out.write(RES_COLUMNS.map((c) => row[c] ?? '').join(',') + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
