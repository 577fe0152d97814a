import type { Client } from '@opensearch-project/opensearch';

type ShardCopy = { routing?: { node?: string; primary?: boolean }; refresh?: { total?: number; external_total?: number }; seq_no?: { max_seq_no?: number } };
type IndexStats = { uuid?: string; shards?: Record<string, ShardCopy[]> };

/**
 * What searches of `index` (an index, an alias or a pattern) can see, as a string that changes
 * whenever that may have changed: for every index behind it, its uuid, and for every shard copy
 * its refresh counts and highest sequence number. A search sees what the last refresh of the
 * copy it reaches made visible, so the same stamp read before and after a read, and again later,
 * means nothing new has become visible in between: no write (the sequence number moves), no
 * refresh, no other index behind the alias. Copies are listed in a fixed order. One `_stats`
 * call (a few milliseconds); what changes nothing (searches, an idle shard) leaves it alone.
 */
export async function indexDataStamp(client: Client, index: string): Promise<string> {
  const res = await client.indices.stats({
    index,
    metric: 'refresh',
    level: 'shards',
    filter_path: ['indices.*.uuid', 'indices.*.shards.*.routing.node', 'indices.*.shards.*.routing.primary', 'indices.*.shards.*.refresh.total', 'indices.*.shards.*.refresh.external_total', 'indices.*.shards.*.seq_no.max_seq_no'],
  } as never);
  const indices = ((res.body as { indices?: Record<string, IndexStats> }).indices ?? {}) as Record<string, IndexStats>;
  const parts: string[] = [];
  for (const name of Object.keys(indices).sort()) {
    const { uuid, shards = {} } = indices[name]!;
    const copies: string[] = [];
    for (const [shard, list] of Object.entries(shards)) {
      for (const c of list) copies.push(`${shard}/${c.routing?.node ?? ''}/${c.routing?.primary ? 'p' : 'r'}:${c.refresh?.total ?? ''}/${c.refresh?.external_total ?? ''}/${c.seq_no?.max_seq_no ?? ''}`);
    }
    parts.push(`${name}@${uuid ?? ''}[${copies.sort().join(',')}]`);
  }
  return parts.join(';');
}
