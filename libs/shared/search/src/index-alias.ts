import type { Client } from '@opensearch-project/opensearch';

export interface IndexDefinition {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
}

/** `prefix-name-v<N>` behind the alias `prefix-name`: readers only ever use the alias. */
export function versionedIndexName(alias: string, version: number | string): string {
  return `${alias}-v${version}`;
}

export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists.body) return [];
  const res = await client.indices.getAlias({ name: alias });
  return Object.keys(res.body as Record<string, unknown>);
}

/** Makes sure the alias points at an index with this definition; creates version 1 if none. */
export async function ensureAliasedIndex(client: Client, alias: string, def: IndexDefinition): Promise<string> {
  const targets = await aliasTargets(client, alias);
  if (targets.length > 0) return targets[0];
  const index = versionedIndexName(alias, 1);
  const exists = await client.indices.exists({ index });
  if (!exists.body) {
    try {
      await client.indices.create({ index, body: def as never });
    } catch (err) {
      if (!String((err as Error).message).includes('resource_already_exists')) throw err;
    }
  }
  await client.indices.updateAliases({ body: { actions: [{ add: { index, alias } }] } });
  return index;
}

/**
 * Puts the field `name` on every index behind the alias whose mapping lacks it (adding a field is
 * allowed in place; documents indexed before have no value in it). Returns those indexes.
 */
export async function addMissingField(client: Client, alias: string, name: string, def: Record<string, unknown>): Promise<string[]> {
  const mappings = (await client.indices.getMapping({ index: alias })).body as Record<string, { mappings?: { properties?: Record<string, unknown> } }>;
  const lacking = Object.entries(mappings)
    .filter(([, m]) => !m.mappings?.properties?.[name])
    .map(([index]) => index);
  if (lacking.length > 0) await client.indices.putMapping({ index: lacking.join(','), body: { properties: { [name]: def } } as never });
  return lacking;
}

/** Atomically moves the alias from whatever it pointed at to `index`. */
export async function switchAlias(client: Client, alias: string, index: string): Promise<string[]> {
  const old = await aliasTargets(client, alias);
  const actions: unknown[] = old.filter((i) => i !== index).map((i) => ({ remove: { index: i, alias } }));
  actions.push({ add: { index, alias } });
  await client.indices.updateAliases({ body: { actions } as never });
  return old.filter((i) => i !== index);
}
