import { CountryCode } from '@lookup/contracts';
import type { ImportLease, ImportLeaseOptions } from '@lookup/shared/search';
import { BusinessDoc } from '../domain/business.doc';

export const BUSINESS_STORE = Symbol('BUSINESS_STORE');

export interface BusinessFilter {
  countries: CountryCode[] | null;
  /** Only entities without a termination date. */
  activeOnly: boolean;
}

export interface BulkLoadReport {
  docs: number;
  seconds: number;
}

/** The live version of one country's register (the pipeline's `previous`). */
export interface BusinessVersionInfo {
  version: string;
  docs: number;
}

/**
 * A new version of one country's register, built beside the live data (the other countries'
 * entities are carried over); invisible to searches until `commit` switches in one atomic step.
 */
export interface BusinessVersionBuild {
  readonly version: string;
  readonly carried: number;
  load(batches: AsyncIterable<BusinessDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport>;
  /** Indexes built and refreshed: the new version can be read (verify step). */
  seal(): Promise<void>;
  /** The country's entities in the new version. */
  count(): Promise<number>;
  withReader<T>(fn: (store: BusinessStore) => Promise<T>): Promise<T>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * The business search port; one adapter per engine, the same answers from each. Engines find
 * candidates; ranking, highlight and mapping are shared pure code.
 */
export interface BusinessStore {
  readonly engine: 'sqlite' | 'opensearch';
  init(): Promise<void>;
  /** Replaces the whole register: readers see the old data until the new is complete. */
  replaceAll(batches: AsyncIterable<BusinessDoc[]>, onProgress?: (docs: number) => void): Promise<BulkLoadReport>;
  /** Inserts or replaces entities by business_id, visible to searches when it resolves. */
  upsert(docs: BusinessDoc[]): Promise<void>;
  get(businessId: string): Promise<BusinessDoc | null>;
  count(): Promise<number>;
  /** Entities whose name key starts with `key`, in name-key order, at most `size`. */
  byNamePrefix(key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]>;
  /** Entities whose name has every word whole and every prefix as the start of a word; at most `size`, any order. */
  byTokens(words: string[], prefixes: string[], filter: BusinessFilter, size: number): Promise<BusinessDoc[]>;
  /** Entities whose padded id number starts with `digits` or whose unpadded one starts with `key`. */
  byCin(digits: string, key: string, filter: BusinessFilter, size: number): Promise<BusinessDoc[]>;
  liveVersion(country: CountryCode): Promise<BusinessVersionInfo | null>;
  beginVersion(country: CountryCode): Promise<BusinessVersionBuild>;
  /** One build at a time across processes (every country's build copies the others and switches one alias); see import-lease.ts. */
  lockImports?(command: string, opts?: ImportLeaseOptions): Promise<ImportLease>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
