import { Logger } from '@nestjs/common';
import type { Client } from '@opensearch-project/opensearch';
import { searchDirect } from './search-direct';

/*
 * Hits read from a binary doc-values column that holds each document packed, instead of from
 * `_source`. Why: a hit's `_source`, and its `_id`, come from Lucene's stored fields, which decompress a
 * block per document, about 6 µs a hit. On the whole CZ register a places search that fills its
 * 300 candidates took 3.5 ms through `_source` and 0.9 ms through the column
 * (`bench/opensearch-hit-fetch.ts`).
 */

/**
 * A search body (as it reads `_source`) made to read the packed column `field` instead, and
 * nothing from the stored fields (not even `_id`): its `_source` filter, if any, is left out,
 * since OpenSearch refuses `_source` with `stored_fields: _none_`.
 */
export function packedBody(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const out: Record<string, unknown> = { stored_fields: '_none_', docvalue_fields: [field] };
  for (const key of Object.keys(body)) if (key !== '_source') out[key] = body[key];
  return out;
}

/** The column's value: the document's JSON text in base64 (what a binary field takes and gives). */
export function packJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** `packJson` undone; undefined for a value that is not base64 of JSON text. */
export function unpackJson(base64: string): unknown {
  try {
    return JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

type PackedAnswer = { hits: { hits: Array<{ _index: string; fields?: Record<string, string[] | undefined>; sort?: unknown[] }> } };
type SourceAnswer<S> = { hits: { hits: Array<{ _source: S; sort?: unknown[] }> } };

/** How long searches read `_source` once an index showed hits without packed documents, before they try the column again. */
export const SOURCE_READ_MS = 60_000;

/**
 * Searches that read their hits from a packed-document column, falling back to `_source` for an
 * index made before the column: a hit that comes without a packed document (or with one `unpack`
 * does not take) sends the same search again through `_source`, and so does every search for the
 * next minute (one warning per index); then the column is tried again, since a new version of the
 * data may have replaced that index.
 */
export class PackedHitsReader<D, S> {
  /** Until when (ms since the epoch) searches read `_source`. */
  private sourceUntil = 0;
  private readonly warned = new Set<string>();

  constructor(
    private readonly field: string,
    private readonly unpack: (packed: string) => D | null,
    private readonly fromSource: (source: S) => D,
    private readonly what: string,
  ) {}

  /** Whether the next search reads the packed column (else `_source`). */
  get readsPacked(): boolean {
    return Date.now() >= this.sourceUntil;
  }

  /** Every search through `_source` from now on, as on an index without the column: for benchmarks comparing the two reads on one index. */
  readThroughSource(): void {
    this.sourceUntil = Infinity;
  }

  /** The hits of `body` (a search as it reads `_source`) on `index`, each with its sort values, as `each` makes them. */
  async search<T>(client: Client, index: string, body: Record<string, unknown>, each: (doc: D, sort: unknown[] | undefined) => T): Promise<T[]> {
    if (Date.now() >= this.sourceUntil) {
      const hits = (await searchDirect<PackedAnswer>(client, index, packedBody(body, this.field))).hits.hits;
      const out: T[] = new Array<T>(hits.length);
      let i = 0;
      for (; i < hits.length; i++) {
        const packed = hits[i].fields?.[this.field]?.[0];
        const doc = packed === undefined ? null : this.unpack(packed);
        if (doc === null) break;
        out[i] = each(doc, hits[i].sort);
      }
      if (i === hits.length) return out;
      this.sourceUntil = Date.now() + SOURCE_READ_MS;
      const without = hits[i]._index;
      if (!this.warned.has(without)) {
        this.warned.add(without);
        new Logger('PackedHits').warn(
          `index ${without} has ${this.what} without packed documents (made before them): searches read _source, slower for many hits, until the data's next version is imported`,
        );
      }
    }
    const hits = (await searchDirect<SourceAnswer<S>>(client, index, body)).hits.hits;
    return hits.map((h) => each(this.fromSource(h._source), h.sort));
  }
}
