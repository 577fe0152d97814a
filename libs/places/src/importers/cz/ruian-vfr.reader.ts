import { Readable } from 'node:stream';
import { SaxesParser, SaxesTagNS } from 'saxes';
import { isJtskInRange } from '../../geo/sjtsk';
import { walkXml } from '../io/xml';
import { SourceFile, sourcesAt } from '../io/source';

/** The VFR exchange-format namespace (`vf:`); the element namespaces (`ami:`, `soi:` ...) are told apart by local name and nesting. */
export const VFR_NS = 'urn:cz:isvs:ruian:schemas:VymennyFormatTypy:v1';

/** An address point (`vf:AdresniMisto`) as the change file gives it: its references are codes only. */
export interface VfrAddress {
  type: 'address';
  kod: string;
  tx: number;
  buildingKod: string | null;
  streetKod: string | null;
  houseNumber: string | null;
  /** Orientation number with its letter, lower-cased like the CSV reader (`14a`). */
  orientation: string | null;
  postalCode: string | null;
  /** S-JTSK, positive (X the larger); null when the record has no definition point. */
  x: number | null;
  y: number | null;
  /** `PlatiDo` set or `Nespravny` true: the address no longer exists. */
  ended: boolean;
}

export interface VfrBuilding {
  type: 'building';
  kod: string;
  tx: number;
  /** `TypStavebnihoObjektuKod`: 1 with a conscription number (č.p.), 2 with an evidence number (č.ev.). */
  kindCode: string | null;
  partKod: string | null;
  momcKod: string | null;
  ended: boolean;
}

/** Named register units an address refers to: streets, municipality parts, municipalities, MOMC and MOP (Praha's districts). */
export interface VfrUnit {
  type: 'street' | 'part' | 'municipality' | 'momc' | 'mop';
  kod: string;
  tx: number;
  name: string;
  /** The enclosing municipality (streets, parts) or MOP (a MOMC). */
  parentKod: string | null;
  ended: boolean;
}

/** `vf:ZaniklyPrvek`: an element deleted from the register (`TypPrvkuKod` AD address, SO building, UL street ...). */
export interface VfrEnded {
  type: 'ended';
  elementType: string;
  kod: string;
  tx: number;
}

export type VfrRecord = VfrAddress | VfrBuilding | VfrUnit | VfrEnded;

export interface VfrRecordError {
  source: string;
  line: number;
  message: string;
}

/** Collection element -> item element -> what it becomes. */
const ITEMS: Record<string, [string, VfrRecord['type']]> = {
  AdresniMista: ['AdresniMisto', 'address'],
  StavebniObjekty: ['StavebniObjekt', 'building'],
  Ulice: ['Ulice', 'street'],
  CastiObci: ['CastObce', 'part'],
  Obce: ['Obec', 'municipality'],
  Momc: ['Momc', 'momc'],
  Mop: ['Mop', 'mop'],
  ZaniklePrvky: ['ZaniklyPrvek', 'ended'],
};

/**
 * Streams the records an address needs from RUIAN VFR files (`vf:VymennyFormat`: the daily
 * state-wide change file `YYYYMMDD_ST_ZKSH.xml.zip` — Z changes, K complete data with address
 * points and streets, S state, H original boundaries — or the monthly full `ST_UKSH`; plain XML
 * or a zip/folder of them). `ST_ZKSG` (generalised boundaries) holds no address points.
 * Memory stays flat whatever the size: only the record being read is held. A record with a bad
 * value goes to `onError` and the reading goes on; broken XML (a truncated file) throws.
 */
export async function* readVfrRecords(input: string | Readable, onError: (e: VfrRecordError) => void): AsyncGenerator<VfrRecord> {
  if (input instanceof Readable) {
    yield* readVfrFile({ name: 'stream', size: 0, open: async () => input }, onError);
    return;
  }
  for await (const file of sourcesAt(input, /\.xml$/i)) yield* readVfrFile(file, onError);
}

export async function* readVfrFile(file: SourceFile, onError: (e: VfrRecordError) => void): AsyncGenerator<VfrRecord> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const walker = new VfrWalker(file.name, onError, () => parser.line);
  yield* walkXml(file, parser, walker);
  if (!walker.sawRoot) throw new Error(`${file.name}: not a RUIAN VFR file (no vf:VymennyFormat root in ${VFR_NS})`);
}

interface Draft {
  type: VfrRecord['type'];
  depth: number;
  line: number;
  /** Leaves by their local-name path below the record (`StavebniObjekt.Kod`); repeated leaves joined with `|`. */
  fields: Record<string, string>;
}

/** Push-side state machine fed by saxes events; records pile up in `out` until the reader yields them. */
class VfrWalker {
  readonly out: VfrRecord[] = [];
  sawRoot = false;
  private readonly path: string[] = [];
  private dataDepth = -1;
  private draft: Draft | null = null;
  private buf = '';

  constructor(
    private readonly source: string,
    private readonly onError: (e: VfrRecordError) => void,
    private readonly line: () => number,
  ) {}

  open(tag: SaxesTagNS): void {
    const name = tag.local;
    this.path.push(name);
    this.buf = '';
    const depth = this.path.length;
    if (depth === 1) {
      if (name !== 'VymennyFormat' || tag.uri !== VFR_NS) throw new Error(`root element is ${tag.name} (${tag.uri || 'no namespace'}), not vf:VymennyFormat`);
      this.sawRoot = true;
    } else if (depth === 2 && name === 'Data' && tag.uri === VFR_NS) {
      this.dataDepth = depth;
    } else if (this.dataDepth > 0 && depth === this.dataDepth + 2 && !this.draft) {
      const item = ITEMS[this.path[depth - 2]!];
      if (item && item[0] === name) this.draft = { type: item[1], depth, line: this.line(), fields: {} };
    }
  }

  text(t: string): void {
    if (this.draft) this.buf += t;
  }

  close(): void {
    const depth = this.path.length;
    const text = this.buf.trim();
    this.buf = '';
    if (this.draft && depth === this.draft.depth) {
      const d = this.draft;
      this.draft = null;
      try {
        this.out.push(toRecord(d));
      } catch (err) {
        this.onError({ source: this.source, line: d.line, message: (err as Error).message });
      }
    } else if (this.draft && text) {
      const key = this.path.slice(this.draft.depth).join('.');
      const f = this.draft.fields;
      f[key] = f[key] === undefined ? text : `${f[key]}|${text}`;
    }
    this.path.pop();
    if (depth === this.dataDepth) this.dataDepth = -1;
  }
}

const CODE = /^\d+$/;

function code(f: Record<string, string>, key: string, what: string, required: boolean): string | null {
  const v = f[key];
  if (v === undefined || v === '') {
    if (required) throw new Error(`${what}: ${key} is missing`);
    return null;
  }
  if (!CODE.test(v)) throw new Error(`${what}: ${key} "${v}" is not a code`);
  return v;
}

function transaction(f: Record<string, string>, what: string): number {
  const v = f['IdTransakce'];
  if (v === undefined) throw new Error(`${what}: IdTransakce is missing`);
  if (!CODE.test(v)) throw new Error(`${what}: IdTransakce "${v}" is not a number`);
  return Number(v);
}

/** `PlatiDo` set, or `Nespravny` true: the record describes something that no longer exists. */
function isEnded(f: Record<string, string>): boolean {
  return !!f['PlatiDo'] || f['Nespravny'] === 'true' || f['Nespravny'] === '1';
}

function toRecord(d: Draft): VfrRecord {
  const f = d.fields;
  const kod = (what: string) => code(f, 'Kod', what, true)!;
  switch (d.type) {
    case 'address':
      return toAddress(f, `AdresniMisto ${f['Kod'] ?? '?'}`, kod);
    case 'building': {
      const what = `StavebniObjekt ${f['Kod'] ?? '?'}`;
      return {
        type: 'building',
        kod: kod(what),
        tx: transaction(f, what),
        kindCode: code(f, 'TypStavebnihoObjektuKod', what, false),
        partKod: code(f, 'CastObce.Kod', what, false),
        momcKod: code(f, 'Momc.Kod', what, false),
        ended: isEnded(f),
      };
    }
    case 'ended': {
      const what = `ZaniklyPrvek ${f['PrvekId'] ?? '?'}`;
      const elementType = f['TypPrvkuKod'];
      if (!elementType) throw new Error(`${what}: TypPrvkuKod is missing`);
      return { type: 'ended', elementType, kod: code(f, 'PrvekId', what, true)!, tx: transaction(f, what) };
    }
    default: {
      const what = `${d.type} ${f['Kod'] ?? '?'}`;
      const parent = d.type === 'momc' ? code(f, 'Mop.Kod', what, false) : d.type === 'street' || d.type === 'part' ? code(f, 'Obec.Kod', what, false) : null;
      const name = f['Nazev'];
      if (!name) throw new Error(`${what}: Nazev is missing`);
      return { type: d.type, kod: kod(what), tx: transaction(f, what), name, parentKod: parent, ended: isEnded(f) };
    }
  }
}

function toAddress(f: Record<string, string>, what: string, kod: (what: string) => string): VfrAddress {
  const rec: VfrAddress = {
    type: 'address',
    kod: kod(what),
    tx: transaction(f, what),
    buildingKod: code(f, 'StavebniObjekt.Kod', what, false),
    streetKod: code(f, 'Ulice.Kod', what, false),
    houseNumber: code(f, 'CisloDomovni', what, false),
    orientation: null,
    postalCode: null,
    x: null,
    y: null,
    ended: isEnded(f),
  };
  if (rec.ended) return rec;
  const orientation = code(f, 'CisloOrientacni', what, false);
  const letter = f['CisloOrientacniPismeno'] ?? '';
  if (letter && (!orientation || !/^\p{L}$/u.test(letter))) throw new Error(`${what}: CisloOrientacniPismeno "${letter}" without CisloOrientacni or not one letter`);
  rec.orientation = orientation ? orientation + letter.toLowerCase() : null;
  const psc = f['Psc'];
  if (psc !== undefined && !/^\d{5}$/.test(psc)) throw new Error(`${what}: Psc "${psc}" is not five digits`);
  rec.postalCode = psc ?? null;
  const pos = f['Geometrie.DefinicniBod.Point.pos'];
  if (pos !== undefined) {
    // EPSG:5514 writes (-Y, -X): easting first, both negative; the CSV writes Y and X positive.
    const [ys, xs, extra] = pos.split(/\s+/);
    const y = Number(ys);
    const x = Number(xs);
    if (extra !== undefined || !Number.isFinite(x) || !Number.isFinite(y) || !isJtskInRange(x, y)) throw new Error(`${what}: gml:pos "${pos}" is not an S-JTSK (EPSG:5514) point in the Czech range`);
    rec.x = Math.abs(x);
    rec.y = Math.abs(y);
  }
  return rec;
}
