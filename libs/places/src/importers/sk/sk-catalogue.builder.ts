import { emptyDoc, PlaceDoc, placeId, PlaceKind } from '../../domain/place.doc';
import { fold } from '../../search/text-fold';
import { byPlaceId, Catalogue, emptyCatalogue } from '../catalogue.types';
import type { RegisterChange } from './sk-register-xml.reader';

export const SK_CATALOGUE_TYPES = ['REGION', 'COUNTY', 'MUNICIPALITY'] as const;
type CatalogueType = (typeof SK_CATALOGUE_TYPES)[number];

const KIND: Record<CatalogueType, PlaceKind & PlaceDoc['object']> = {
  REGION: 'region',
  COUNTY: 'county',
  MUNICIPALITY: 'municipality',
};

/** The register's catch-all items ("Neznámy" region 0, county 6000, "Neznáma" municipality 100000). */
const PLACEHOLDER_NAME = /^nezn[aá]m[ayý]$/i;
const PLACEHOLDER_CODE = new Set(['0', '6000', '100000']);

/**
 * The eight self-governing regions by NUTS 3 code, as the other regions are written in the
 * register (the adjective, without "kraj"). The 2015 register writes SK022 `Trenciansky`, without
 * its diacritic: a register name that folds to the same letters as one of these takes this
 * spelling; any other name is kept as the register gives it.
 */
const SK_REGION_NAMES: Record<string, string> = {
  SK010: 'Bratislavský', SK021: 'Trnavský', SK022: 'Trenčiansky', SK023: 'Nitriansky',
  SK031: 'Žilinský', SK032: 'Banskobystrický', SK041: 'Prešovský', SK042: 'Košický',
};

/** The register's region name, with the diacritics it lost restored (see SK_REGION_NAMES). */
export function skRegionName(code: string, name: string): string {
  const official = SK_REGION_NAMES[code];
  return official && fold(official) === fold(name) ? official : name;
}

interface Current {
  rec: RegisterChange;
  doc: PlaceDoc;
}

/**
 * Folds REGION, COUNTY and MUNICIPALITY change records into the catalogue valid at `asOf`.
 * Per objectId the record with the highest versionId wins, in whatever order batches arrive;
 * an equal versionId also wins, because the change service re-sends a version as UPDATE when
 * it closes it (sets validTo). DELETE leaves a tombstone so an older INSERT cannot revive it.
 */
export class SkCatalogueBuilder {
  private readonly latest = new Map<CatalogueType, Map<string, RegisterChange>>(
    SK_CATALOGUE_TYPES.map((t) => [t, new Map()]),
  );
  private readonly errors: string[] = [];
  private municipalityDocs = new Map<string, PlaceDoc>();

  constructor(private readonly asOf: Date = new Date()) {}

  apply(rec: RegisterChange): void {
    const byObject = this.latest.get(rec.type as CatalogueType);
    if (!byObject) return;
    if (!['INSERT', 'UPDATE', 'DELETE'].includes(rec.operation)) {
      this.errors.push(`${rec.source}: ${rec.type} ${rec.objectId} v${rec.versionId}: unknown databaseOperation ${rec.operation}`);
      return;
    }
    const prev = byObject.get(rec.objectId);
    if (!prev || rec.versionId >= prev.versionId) byObject.set(rec.objectId, rec);
  }

  build(): Catalogue {
    const cat = emptyCatalogue('SK');
    cat.errors.push(...this.errors);
    const regions = this.current('REGION', cat.errors, () => true);
    const counties = this.current('COUNTY', cat.errors, (rec, doc) =>
      attach(doc, regions.get(rec.parents.regionIdentifier ?? ''), 'region', rec, cat.errors),
    );
    const municipalities = this.current('MUNICIPALITY', cat.errors, (rec, doc) =>
      attach(doc, counties.get(rec.parents.countyIdentifier ?? ''), 'county', rec, cat.errors),
    );
    cat.regions = docsOf(regions);
    cat.counties = docsOf(counties);
    cat.municipalities = docsOf(municipalities);
    this.municipalityDocs = new Map([...municipalities].map(([objectId, c]) => [objectId, c.doc]));
    return cat;
  }

  /** After build(): the current municipality with this register objectId (addresses refer to it so). */
  municipalityByObjectId(objectId: string): PlaceDoc | undefined {
    return this.municipalityDocs.get(objectId);
  }

  /** Objects valid at asOf, keyed by objectId, whose parent (checked by `place`) is also valid. */
  private current(
    type: CatalogueType,
    errors: string[],
    place: (rec: RegisterChange, doc: PlaceDoc) => boolean,
  ): Map<string, Current> {
    const out = new Map<string, Current>();
    const byCode = new Map<string, string>();
    // Records without their code list item, told after the loop: most name a current object of another record.
    const codeless: Array<{ what: string; key: string; name: string; at: number }> = [];
    // A name under its parent (same-name municipalities lie in other counties).
    const keyOf = (rec: RegisterChange, name: string) => `${name}|${rec.parents.countyIdentifier ?? rec.parents.regionIdentifier ?? ''}`;
    for (const rec of this.latest.get(type)!.values()) {
      if (rec.operation === 'DELETE' || !this.isValid(rec, errors)) continue;
      const name = rec.itemName?.trim() ?? '';
      const code = rec.itemCode?.trim() ?? '';
      if (PLACEHOLDER_NAME.test(name) || PLACEHOLDER_CODE.has(code)) continue;
      const what = `${type} objectId ${rec.objectId} "${name}"`;
      if (!code || !name) {
        codeless.push({ what, key: keyOf(rec, name), name, at: errors.push('') - 1 });
        continue;
      }
      const clash = byCode.get(code);
      if (clash) {
        errors.push(`${what} repeats ItemCode ${code} of objectId ${clash}: skipped`);
        continue;
      }
      const doc = emptyDoc('SK', KIND[type], placeId('SK', KIND[type], code), type === 'REGION' ? skRegionName(code, name) : name);
      if (!place(rec, doc)) continue;
      byCode.set(code, rec.objectId);
      out.set(rec.objectId, { rec, doc });
    }
    const named = new Map<string, string>();
    for (const [objectId, c] of out) if (!named.has(keyOf(c.rec, c.rec.itemName?.trim() ?? ''))) named.set(keyOf(c.rec, c.rec.itemName?.trim() ?? ''), objectId);
    for (const c of codeless) {
      const kept = c.name ? named.get(c.key) : undefined;
      errors[c.at] = kept
        ? `${c.what} has no codelist ItemCode or ItemName: skipped; "${c.name}" is in the catalogue from objectId ${kept}`
        : `${c.what} has no codelist ItemCode or ItemName: skipped`;
    }
    return out;
  }

  private isValid(rec: RegisterChange, errors: string[]): boolean {
    if (rec.validTo === undefined) return true;
    const validTo = parseRegisterDate(rec.validTo);
    if (validTo === null) {
      errors.push(`${rec.type} objectId ${rec.objectId}: unreadable validTo ${rec.validTo}: skipped`);
      return false;
    }
    return validTo.getTime() > this.asOf.getTime();
  }
}

function attach(doc: PlaceDoc, parent: Current | undefined, level: 'region' | 'county', rec: RegisterChange, errors: string[]): boolean {
  if (!parent) {
    const ref = level === 'region' ? rec.parents.regionIdentifier : rec.parents.countyIdentifier;
    errors.push(`${rec.type} objectId ${rec.objectId} "${doc.name}": its ${level} (objectId ${ref ?? 'none'}) is not a current ${level}: skipped`);
    return false;
  }
  const p = parent.doc;
  if (level === 'region') {
    doc.region_id = p.place_id;
    doc.region = p.name;
  } else {
    doc.county_id = p.place_id;
    doc.county = p.name;
    doc.region_id = p.region_id;
    doc.region = p.region;
  }
  return true;
}

function docsOf(m: Map<string, Current>): PlaceDoc[] {
  return [...m.values()].map((c) => c.doc).sort(byPlaceId);
}

/**
 * Register timestamps: `2015-10-01T10:11:53+02:00`, `3000-12-31T23:59:59.0` (no zone: local),
 * `1875-10-30T22:00:00+00:57`, and dates with a zone like `1996-07-24+02:00`.
 */
export function parseRegisterDate(s: string): Date | null {
  const dateOnly = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(s.trim());
  const iso = dateOnly ? `${dateOnly[1]}T00:00:00${dateOnly[2] ?? ''}` : s.trim();
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t);
}

export async function buildSkCatalogue(records: AsyncIterable<RegisterChange>, asOf?: Date): Promise<Catalogue> {
  const builder = new SkCatalogueBuilder(asOf);
  for await (const rec of records) builder.apply(rec);
  return builder.build();
}
