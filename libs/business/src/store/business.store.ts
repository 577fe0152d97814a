import { CountryCode } from '@lookup/contracts';
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
  ping(): Promise<void>;
  close(): Promise<void>;
}
