import { CountryCode } from '@lookup/contracts';
import { PlaceDoc, PlacesSearchService } from '@lookup/places';
import { BusinessDoc, BusinessStore } from '@lookup/business';

/** The new version failed its checks; the live version keeps serving. */
export class VerifyError extends Error {}
/**
 * The new version is refused for what the file holds (nothing, or far fewer documents than the
 * live version): the same file would be refused again, so the indexer does not retry it.
 */
export class RefusedVersionError extends VerifyError {
  readonly permanent = true;
}

export interface CountCheck {
  /** The country's documents in the new version. */
  docs: number;
  /** Documents the importer gave. */
  loaded: number;
  /** Documents carried over from the live version (outside the dataset's scope). */
  carried: number;
  /** The dataset may upsert over carried documents (same ids): then the version holds between `loaded` and `loaded + carried`. */
  upserts?: boolean;
  /** Address points the importer's report counted, and the address documents it yielded. */
  addresses?: number;
  addressDocs?: number;
  previous: { version: string; docs: number } | null;
  maxDrop: number;
  force: boolean;
  /** The file as the user named it, and its format: an empty one is named (a text file sent as a register reads as none). */
  source?: { location: string; format: string };
  /** What the importer reported on the way (the first ones explain an empty dataset: "neither PRG GML nor a TERC table"). */
  reported?: readonly string[];
}

/** The refusal of a dataset that gave no documents: the file, its format, and the importer's first messages. */
export function noDocuments(source?: { location: string; format: string }, reported: readonly string[] = []): RefusedVersionError {
  const why = reported.length ? ` (${reported.slice(0, 3).join('; ')}${reported.length > 3 ? `; and ${reported.length - 3} more` : ''})` : '';
  return new RefusedVersionError(source ? `verify: ${source.location} gave no documents: is it a ${source.format} file?${why}` : `verify: the dataset gave no documents${why}`);
}

/**
 * Pure: the new version holds exactly what was written (no document lost or doubled on the
 * way), agrees with the importer's own report, is not empty, and did not shrink by more than
 * `maxDrop` of the live version (a truncated source that still parses) unless forced.
 */
export function checkCounts(c: CountCheck): void {
  if (c.loaded === 0) throw noDocuments(c.source, c.reported);
  const fewest = c.upserts ? c.loaded : c.loaded + c.carried;
  if (c.docs < fewest || c.docs > c.loaded + c.carried) {
    throw new VerifyError(`verify: the new version holds ${c.docs} documents, but ${c.loaded} were loaded and ${c.carried} carried over (duplicate ids in the source?)`);
  }
  if (c.addresses !== undefined && c.addressDocs !== undefined && c.addresses !== c.addressDocs) {
    throw new VerifyError(`verify: the importer reported ${c.addresses} addresses but gave ${c.addressDocs} address documents`);
  }
  if (c.previous && !c.force && c.docs < c.previous.docs * (1 - c.maxDrop)) {
    const pct = (100 * (1 - c.docs / c.previous.docs)).toFixed(1);
    throw new RefusedVersionError(
      `verify: the new version has ${c.docs} documents, ${pct}% fewer than the live version ${c.previous.version} (${c.previous.docs}); more than the allowed ${c.maxDrop * 100}% (import it with --force to switch anyway)`,
    );
  }
}

/** Canary searches on the new version: addresses and a municipality taken from the new data must be found. */
export async function placeCanaries(search: PlacesSearchService, country: CountryCode, picks: { primary: PlaceDoc[]; secondary: PlaceDoc[] }): Promise<void> {
  for (const d of picks.primary) {
    const found = await search.query({ query: d.name, country: [country], limit: 20 } as never);
    if (!found.some((p) => p.place_id === d.place_id)) throw new VerifyError(`verify: canary address "${d.name}" (${d.place_id}) is not found in the new version`);
  }
  for (const d of picks.secondary) {
    const found = await search.municipality({ query: d.name, country: [country], limit: 20 } as never);
    if (!found.some((p) => p.place_id === d.place_id)) throw new VerifyError(`verify: canary municipality "${d.name}" (${d.place_id}) is not found in the new version`);
  }
}

/** Canary lookups on the new business version: entities of the new data by id and by id number. */
export async function businessCanaries(store: BusinessStore, picks: { primary: BusinessDoc[] }): Promise<void> {
  for (const d of picks.primary) {
    const got = await store.get(d.business_id);
    if (!got || got.name !== d.name) throw new VerifyError(`verify: canary entity ${d.business_id} is not in the new version`);
    const byCin = await store.byCin(d.cin, '', { countries: [d.country], activeOnly: false }, 20);
    if (!byCin.some((b) => b.business_id === d.business_id)) throw new VerifyError(`verify: canary entity ${d.business_id} is not found by its number ${d.cin}`);
  }
}
