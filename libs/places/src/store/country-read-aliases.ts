import { Logger } from '@nestjs/common';
import { CountryCode } from '@lookup/contracts';
import { OpenSearchClient, openSearchStatus, retryWhileNoShard } from '@lookup/shared/search';
import { countryAliasName } from './opensearch-places.versions';

/** How often the set of country aliases is read again while searches come (another process's first version of a country). */
export const COUNTRY_ALIASES_REFRESH_MS = 10_000;

/**
 * Which name a search reads. The read alias points at one index per country; a search of one
 * country sent there runs on every country's shard (and then in two phases, query and fetch,
 * where one shard answers in one): on the whole CZ register, with a second country's index
 * behind the alias the engine's p50 rose 28 %, with five more 42 % (`bench/country-fanout.ts`).
 * So a search of one country reads the country's own alias (`<alias>-cz`), which each switch of
 * a version moves in the same `_aliases` call as the read alias: it always names exactly the
 * country's live index. A country without one (its documents in the shared index, or on a
 * deployment older than these aliases, until its next import) is read through the read alias.
 *
 * Which country aliases exist is read at start and again every COUNTRY_ALIASES_REFRESH_MS while
 * searches come (in the background; the indexer may be another process). One that went away
 * (its index deleted) answers 404: the search is asked again on the read alias (readThrough()).
 */
export class CountryReadAliases {
  private known = new Set<string>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  private readonly log = new Logger('CountryReadAliases');

  constructor(
    private readonly client: OpenSearchClient,
    private readonly alias: string,
    private readonly refreshMs = COUNTRY_ALIASES_REFRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** False once the cluster refused to list aliases (401/403): every search then reads the read alias. */
  private allowed = true;
  /** Whether the last read failed (one warning per run of failures). */
  private failing = false;

  /**
   * The country aliases that exist, read now (at start, after a switch, and in the background).
   * A failure keeps the set as it was and is logged, never thrown: searches still have the read alias.
   */
  async refresh(): Promise<void> {
    if (!this.allowed) return;
    this.readAt = this.now();
    try {
      const res = await this.client.cat.aliases({ name: `${this.alias}-*`, format: 'json' } as never);
      const prefix = `${this.alias}-`;
      this.known = new Set(
        (res.body as unknown as Array<{ alias: string }>).map((r) => r.alias).filter((a) => a.length === prefix.length + 2 && a.startsWith(prefix)),
      );
      this.failing = false;
    } catch (err) {
      const status = openSearchStatus(err);
      if (status === 401 || status === 403) {
        this.allowed = false;
        this.known = new Set();
        this.log.warn(`OpenSearch refused to list the aliases ${this.alias}-* (${status}): every search reads ${this.alias}, all countries' indexes; grant the view_index_metadata privilege on them to read one country's index`);
      } else if (!this.failing) {
        this.failing = true;
        this.log.warn(`reading the country aliases of ${this.alias} failed, tried again every ${this.refreshMs / 1000} s: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** The name a search of `countries` reads: the country's own alias when there is one country and it has one, else the read alias. */
  target(countries: readonly CountryCode[] | null): string {
    if (this.allowed && !this.reading && this.now() - this.readAt >= this.refreshMs) {
      this.reading = this.refresh().finally(() => (this.reading = null));
    }
    if (countries?.length !== 1) return this.alias;
    const own = countryAliasName(this.alias, countries[0]);
    return this.known.has(own) ? own : this.alias;
  }

  /**
   * `read` on the name target() gives; when that was a country alias that has gone (404: its
   * index deleted by a switch this process has not seen), again on the read alias. One that no
   * shard could answer is asked again after a pause (retryWhileNoShard).
   */
  async readThrough<T>(countries: readonly CountryCode[] | null, read: (name: string) => Promise<T>): Promise<T> {
    const name = this.target(countries);
    // A search that found no shard to answer it is asked again (retryWhileNoShard): never a 503 for a switch in flight.
    if (name === this.alias) return retryWhileNoShard(() => read(name));
    return retryWhileNoShard(async () => {
      try {
        return await read(name);
      } catch (err) {
        if (openSearchStatus(err) !== 404) throw err;
        this.known.delete(name);
        return read(this.alias);
      }
    });
  }
}
