import type { Client } from '@opensearch-project/opensearch';

/** A bulk request the engine answered with item errors (a write that failed, not the source read): worth another try. */
export class BulkIndexError extends Error {
  override readonly name = 'BulkIndexError';
}

/** Bulk-indexes documents by id; throws with the first item error so nothing fails silently. */
export async function bulkIndex<T extends object>(client: Client, index: string, docs: T[], idOf: (d: T) => string, refresh = false): Promise<void> {
  if (docs.length === 0) return;
  const body: unknown[] = [];
  for (const d of docs) body.push({ index: { _index: index, _id: idOf(d) } }, d);
  const res = await client.bulk({ body: body as never, refresh: refresh ? 'wait_for' : false });
  const r = res.body as { errors: boolean; items: Array<Record<string, { error?: { reason?: string } }>> };
  if (r.errors) {
    const first = r.items.map((i) => Object.values(i)[0]).find((i) => i.error);
    throw new BulkIndexError(`bulk indexing into ${index} failed: ${first?.error?.reason ?? 'unknown reason'}`);
  }
}

/**
 * Streams batches into the engine with one bulk request in flight while the next is built: the
 * engine indexes while we parse, and a slow engine slows the reader down (backpressure) instead
 * of filling the heap. Regroups into requests of `size` documents (0: one request per batch).
 * On a failure it waits for the request in flight before rethrowing, so none keeps running
 * against an index the caller deletes next. Returns the number of documents sent.
 */
export async function pipelinedBulk<T>(batches: AsyncIterable<T[]>, send: (docs: T[]) => Promise<void>, size: number, onProgress?: (docs: number) => void): Promise<number> {
  let n = 0;
  let pending: T[] = [];
  let inFlight: Promise<void> | null = null;
  const flush = async (docs: T[]) => {
    if (inFlight) await inFlight;
    inFlight = send(docs);
  };
  try {
    for await (const batch of batches) {
      if (size <= 0) await flush(batch);
      else {
        pending.push(...batch);
        while (pending.length >= size) {
          await flush(pending.slice(0, size));
          pending = pending.slice(size);
        }
      }
      n += batch.length;
      onProgress?.(n);
    }
    if (pending.length) await flush(pending);
    if (inFlight) await inFlight;
  } catch (err) {
    await (inFlight as Promise<void> | null)?.catch(() => undefined);
    throw err;
  }
  return n;
}
