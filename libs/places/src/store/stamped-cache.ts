import type { PlacesStore } from './places.store';

/**
 * Answers kept per key under the store's data stamp, and answered again while the stamp is the
 * same: exact, since any write or version switch, by any process, changes the stamp. An answer is
 * kept only when the stamp read after it was built is the one read before (nothing became visible
 * while it was read). A stamp that cannot be read now (a node of the cluster going away under the
 * `_stats` call) only costs the saving: the answer is built and not kept, instead of failing a
 * request the store can answer.
 */
export class StampedCache<T> {
  private readonly entries = new Map<string, { stamp: string; value: T }>();

  /** `maxEntries`: past it the cache starts again; `keep`: what is kept of a built answer (e.g. frozen, since every later caller shares it). */
  constructor(
    private readonly store: Pick<PlacesStore, 'dataStamp'>,
    private readonly o: { maxEntries?: number; keep?: (value: T) => T } = {},
  ) {}

  async get(key: string, build: () => Promise<T>): Promise<T> {
    const stamp = await this.stamp();
    if (stamp === null) return build();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await build();
    if ((await this.stamp()) !== stamp) {
      this.entries.delete(key);
      return value;
    }
    if (this.entries.size >= (this.o.maxEntries ?? Infinity)) this.entries.clear();
    const kept = this.o.keep ? this.o.keep(value) : value;
    this.entries.set(key, { stamp, value: kept });
    return kept;
  }

  private async stamp(): Promise<string | null> {
    try {
      return await this.store.dataStamp();
    } catch {
      return null;
    }
  }
}
