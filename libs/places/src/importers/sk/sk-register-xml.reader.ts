import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { walkXml } from '../io/xml';
import { SourceFile, sourcesAt } from '../io/source';

/** One `<...Change>` record of a Register adries batch, generic over the record type. */
export interface RegisterChange {
  /** The batch's `<type>`: REGION, COUNTY, MUNICIPALITY, DISTRICT, STREET_NAME, ... */
  type: string;
  /** INSERT, UPDATE or DELETE. */
  operation: string;
  objectId: string;
  versionId: number;
  createdReason?: string;
  validFrom?: string;
  validTo?: string;
  effectiveDate?: string;
  /** The record's own codelist item (`<Region><Codelist><CodelistItem>`), if it has one. */
  itemCode?: string;
  itemName?: string;
  /** Every `...Identifier` child: objectIds of the enclosing objects. */
  parents: RegisterParents;
  /** All other leaves by their path below the record (`status`, `Municipality.Codelist.CodelistCode`, `Building@ContainsFlats`). */
  fields: Record<string, string>;
  /** The file or zip entry the record came from. */
  source: string;
}

export interface RegisterParents {
  regionIdentifier?: string;
  countyIdentifier?: string;
  municipalityIdentifier?: string;
  districtIdentifier?: string;
  [name: string]: string | undefined;
}

export interface RegisterReadOptions {
  /** Only these batch types are parsed; a single-type batch of another type is abandoned after its `<type>`. */
  types?: Iterable<string>;
  /** Which files of a zip or folder are batches; default `*.xml`. */
  entryPattern?: RegExp;
}

/** Thrown from inside saxes' callbacks to stop parsing a batch mid-chunk. */
const ABANDON = new Error('batch abandoned');

const TOP_FIELDS = new Set(['databaseOperation', 'objectId', 'versionId', 'createdReason', 'validFrom', 'validTo', 'effectiveDate']);

/**
 * Streams the change records of Register adries XML batches: a file, a zip or folder of
 * batches (read in entry order), or a stream. Both the initial-batch shape (root `<register>`)
 * and the change-service shape (`getChangesResponse/return/register*`) are read.
 */
export async function* readRegisterChanges(
  input: string | Readable,
  options: RegisterReadOptions = {},
): AsyncGenerator<RegisterChange> {
  const wanted = options.types ? new Set(options.types) : null;
  if (input instanceof Readable) {
    yield* readRegisterBatch({ name: 'stream', size: 0, open: async () => input }, wanted);
    return;
  }
  for await (const file of sourcesAt(input, options.entryPattern ?? /\.xml$/i)) yield* readRegisterBatch(namedAfter(input, file), wanted);
}

/**
 * A zip entry or folder member named after what the user gave too (`davky.zip/Davka7.xml`), so
 * the messages about its records say where to look; a plain file keeps its own name.
 */
export function namedAfter(path: string, file: SourceFile): SourceFile {
  const given = basename(path);
  return file.name === given ? file : { ...file, name: `${given}/${file.name}` };
}

/** One XML batch (a file, zip entry or folder member). */
export async function* readRegisterBatch(file: SourceFile, wanted: Set<string> | null): AsyncGenerator<RegisterChange> {
  yield* walkXml(file, new SaxesParser({ position: true }), new BatchWalker(file.name, wanted), ABANDON);
}

interface Draft {
  depth: number;
  fields: Record<string, string>;
  top: Record<string, string>;
  parents: RegisterParents;
}

/** Push-side state machine fed by saxes events; records pile up in `out` until the reader yields them. */
class BatchWalker {
  readonly out: RegisterChange[] = [];
  private readonly path: string[] = [];
  private registerDepth = -1;
  private type = '';
  private draft: Draft | null = null;
  private buf = '';

  constructor(
    private readonly source: string,
    private readonly wanted: Set<string> | null,
  ) {}

  open(tag: { name: string; attributes: Record<string, unknown> }): void {
    const name = localName(tag.name);
    this.path.push(name);
    this.buf = '';
    const depth = this.path.length;
    if (name === 'register') {
      this.registerDepth = depth;
      this.type = '';
    } else if (depth === this.registerDepth + 1 && name.endsWith('Change') && this.isWanted()) {
      this.draft = { depth, fields: {}, top: {}, parents: {} };
    } else if (this.draft) {
      const rel = this.path.slice(this.draft.depth).join('.');
      for (const [attr, value] of Object.entries(tag.attributes)) this.draft.fields[`${rel}@${attr}`] = String(value);
    }
  }

  text(t: string): void {
    if (this.draft || this.path.length === this.registerDepth + 1) this.buf += t;
  }

  close(): void {
    const depth = this.path.length;
    const name = this.path[depth - 1]!;
    const text = this.buf.trim();
    this.buf = '';
    if (depth === this.registerDepth + 1 && name === 'type') {
      this.type = text;
      // A root-level register holds one type only, so nothing more is needed from this file.
      if (!this.isWanted() && this.registerDepth === 1) throw ABANDON;
    } else if (this.draft && depth === this.draft.depth) {
      this.out.push(this.finish(this.draft));
      this.draft = null;
    } else if (this.draft && text) {
      this.leaf(this.draft, this.path.slice(this.draft.depth), text);
    }
    this.path.pop();
    if (name === 'register') this.registerDepth = -1;
  }

  private isWanted(): boolean {
    return !this.wanted || this.wanted.has(this.type);
  }

  private leaf(d: Draft, rel: string[], text: string): void {
    const key = rel[0]!;
    if (rel.length === 1 && TOP_FIELDS.has(key)) d.top[key] = text;
    else if (rel.length === 1 && key.endsWith('Identifier')) d.parents[key] = text;
    else if (rel.length === 4 && rel[1] === 'Codelist' && rel[2] === 'CodelistItem' && rel[3] === 'ItemCode') d.top['itemCode'] = text;
    else if (rel.length === 4 && rel[1] === 'Codelist' && rel[2] === 'CodelistItem' && rel[3] === 'ItemName') d.top['itemName'] = text;
    else {
      const path = rel.join('.');
      d.fields[path] = d.fields[path] === undefined ? text : `${d.fields[path]}|${text}`;
    }
  }

  private finish(d: Draft): RegisterChange {
    const { top } = d;
    const versionId = Number(top['versionId']);
    if (!top['objectId'] || !Number.isFinite(versionId) || !top['databaseOperation']) {
      throw new Error(`a ${this.type} record lacks objectId, versionId or databaseOperation`);
    }
    const rec: RegisterChange = {
      type: this.type,
      operation: top['databaseOperation'],
      objectId: top['objectId'],
      versionId,
      parents: d.parents,
      fields: d.fields,
      source: this.source,
    };
    for (const k of ['createdReason', 'validFrom', 'validTo', 'effectiveDate', 'itemCode', 'itemName'] as const) {
      if (top[k] !== undefined) rec[k] = top[k];
    }
    return rec;
  }
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}
