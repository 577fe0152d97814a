import { Equals, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { COUNTRY_CODES, CountryCode, parseRequest, Required, UpperTrim } from '@lookup/contracts';

export const DATASET_KINDS = ['catalogue', 'addresses', 'address-changes', 'postal-codes', 'business'] as const;
export type DatasetKind = (typeof DATASET_KINDS)[number];

/** `datasets.updated`: a new official file is available at `location`. */
export class DatasetUpdatedEvent {
  @UpperTrim() @Required() @IsIn(COUNTRY_CODES) country!: CountryCode;
  @Required() @IsIn(DATASET_KINDS) kind!: DatasetKind;
  /** The importer to use, e.g. `ruian-csv`, `sk-register-xml`, `geonames`, `cz-catalogue-csv`. */
  @Required() @IsString() @MaxLength(40) format!: string;
  /** A path on the indexer's file system or an http(s) URL. */
  @Required() @IsString() @MaxLength(2000) location!: string;
  /** `sha256:<hex>` of the file, checked before import. */
  @IsOptional() @Matches(/^sha256:[0-9a-f]{64}$/) checksum?: string;
  @Required() @IsISO8601() publishedAt!: string;
  /** `import --force`: switch to this version even with far fewer documents than the live one. */
  @IsOptional() @Equals(true) force?: true;
}

export function parseDatasetEvent(data: unknown): DatasetUpdatedEvent {
  return parseRequest(DatasetUpdatedEvent, data);
}

/** JetStream de-duplicates a re-published event for the same file within the stream's window (24 h). */
export function eventMsgId(e: DatasetUpdatedEvent): string {
  // Forced, the same file is another event: the one the indexer refused for its drop can be sent again with --force.
  return `${e.country}:${e.kind}:${e.checksum ?? e.location}:${e.publishedAt}${e.force ? ':force' : ''}`;
}
