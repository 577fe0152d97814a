import type { Client } from '@opensearch-project/opensearch';

/** Bulk-indexes documents by id; throws with the first item error so nothing fails silently. */
export async function bulkIndex<T extends object>(client: Client, index: string, docs: T[], idOf: (d: T) => string, refresh = false): Promise<void> {
  if (docs.length === 0) return;
  const body: unknown[] = [];
  for (const d of docs) body.push({ index: { _index: index, _id: idOf(d) } }, d);
  const res = await client.bulk({ body: body as never, refresh: refresh ? 'wait_for' : false });
  const r = res.body as { errors: boolean; items: Array<Record<string, { error?: { reason?: string } }>> };
  if (r.errors) {
    const first = r.items.map((i) => Object.values(i)[0]).find((i) => i.error);
    throw new Error(`bulk indexing into ${index} failed: ${first?.error?.reason ?? 'unknown reason'}`);
  }
}
