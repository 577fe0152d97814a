import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { openSqlite, SqliteDatabase } from '@lookup/shared/search';
import { fold } from '../domain/text-fold';
import { AddressLookup } from './address-lookup';
import { AddressParts } from './address-text';
import { csvRows, streamLines } from './io/text-lines';

/** RUIAN address CSV columns we read, by their folded header names (`Kód ADM` -> `kod adm`). */
const COLS = {
  kodAdm: 'kod adm',
  obec: 'nazev obce',
  castObce: 'nazev casti obce',
  ulice: 'nazev ulice',
  typSo: 'typ so',
  cisloDomovni: 'cislo domovni',
  cisloOrientacni: 'cislo orientacni',
  znak: 'znak cisla orientacniho',
  psc: 'psc',
} as const;

/** Pure: one RUIAN address row (by header index) -> its code and parts. */
export function ruianRowToAddress(fields: string[], at: Record<keyof typeof COLS, number>): { kod: number; address: AddressParts } | null {
  const kod = Number(fields[at.kodAdm]);
  if (!Number.isSafeInteger(kod) || kod <= 0) return null;
  const cd = fields[at.cisloDomovni] ?? '';
  const evidence = /ev/.test(fields[at.typSo] ?? '');
  return {
    kod,
    address: {
      street: fields[at.ulice] ?? '',
      street_number: cd ? (evidence ? `č. ev. ${cd}` : cd) : null,
      building_number: (fields[at.cisloOrientacni] ?? '') + (fields[at.znak] ?? ''),
      postal_code: fields[at.psc] ?? '',
      municipality: fields[at.obec] ?? '',
      district: fields[at.castObce] ?? '',
    },
  };
}

export function headerIndex(header: string[]): Record<keyof typeof COLS, number> {
  const folded = header.map((h) => fold(h.trim()));
  const out = {} as Record<keyof typeof COLS, number>;
  for (const [k, name] of Object.entries(COLS) as Array<[keyof typeof COLS, string]>) {
    const i = folded.indexOf(name);
    if (i < 0) throw new Error(`not a RUIAN address CSV: no column "${name}"`);
    out[k] = i;
  }
  return out;
}

/**
 * RUIAN address points staged in a SQLite file keyed by `Kód ADM`, so joining 3.5 M RES rows
 * needs neither the 2.8 M points in memory nor a second pass over RES.
 */
export class RuianAddressIndex implements AddressLookup {
  private readonly stmt;

  private constructor(private readonly db: SqliteDatabase) {
    this.stmt = db.prepare('SELECT street, sn, bn, psc, obec, part FROM adr WHERE kod = ?').raw();
  }

  /** Reads the official monthly zip (`CSV/<date>_OB_<obec>_ADR.csv`, windows-1250, `;`). */
  static async build(zipPath: string, stagePath: string, options: { entries?: RegExp } = {}): Promise<RuianAddressIndex> {
    const db = openSqlite(stagePath);
    db.exec('DROP TABLE IF EXISTS adr; CREATE TABLE adr (kod INTEGER PRIMARY KEY, street TEXT, sn TEXT, bn TEXT, psc TEXT, obec TEXT, part TEXT) WITHOUT ROWID');
    const ins = db.prepare('INSERT OR REPLACE INTO adr VALUES (?, ?, ?, ?, ?, ?, ?)');
    const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
    try {
      for await (const entry of zip.eachEntry()) {
        if (!/\.csv$/i.test(entry.fileName) || (options.entries && !options.entries.test(entry.fileName))) continue;
        const stream: Readable = await zip.openReadStreamPromise(entry);
        let at: Record<keyof typeof COLS, number> | null = null;
        const rows: Array<{ kod: number; address: AddressParts }> = [];
        for await (const fields of csvRows(streamLines(stream, 'windows-1250'), ';')) {
          if (!at) {
            at = headerIndex(fields);
            continue;
          }
          const r = ruianRowToAddress(fields, at);
          if (r) rows.push(r);
        }
        db.transaction(() => {
          for (const { kod, address: a } of rows) ins.run(kod, a.street, a.street_number, a.building_number, a.postal_code, a.municipality, a.district);
        })();
      }
    } finally {
      zip.close();
    }
    return new RuianAddressIndex(db);
  }

  /** An index staged before (e.g. by an earlier import). */
  static open(stagePath: string): RuianAddressIndex {
    return new RuianAddressIndex(openSqlite(stagePath));
  }

  get(kodAdm: number): AddressParts | null {
    const r = this.stmt.get(kodAdm) as [string, string | null, string, string, string, string] | undefined;
    if (!r) return null;
    return { street: r[0], street_number: r[1], building_number: r[2], postal_code: r[3], municipality: r[4], district: r[5] };
  }

  size(): number {
    return this.db.prepare('SELECT count(*) FROM adr').pluck().get() as number;
  }

  close(): void {
    this.db.close();
  }
}
