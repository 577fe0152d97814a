import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Not, Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { QuotaKind, UsageEntity } from './usage.entity';
import { GATEWAY_DB } from './keys.constants';
import { RateBucketEntity } from './rate-bucket.entity';

/** Tokens a lease got, and what the bucket holds after it (fractional while refilling). */
export interface Lease {
  granted: number;
  left: number;
}

/** What a quota lease got, and the counter after it (see leaseQuota). */
export interface QuotaLease {
  granted: number;
  /** `count` after the statement: uses answered plus uses out on lease, all replicas. */
  count: number;
  /** Uses out on lease whose outcome the database does not know yet, all replicas. */
  leased: number;
  /** Milliseconds since the row was last leased from or reported to (database clock). */
  ageMs: number;
}

/** The only code that talks to the key and usage tables. */
@Injectable()
export class ApiKeyRepository {
  constructor(
    @InjectRepository(ApiKeyEntity, GATEWAY_DB) private readonly keys: Repository<ApiKeyEntity>,
    @InjectRepository(UsageEntity, GATEWAY_DB) private readonly usage: Repository<UsageEntity>,
    @InjectRepository(RateBucketEntity, GATEWAY_DB) private readonly buckets: Repository<RateBucketEntity>,
  ) {}

  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { keyHash, revokedAt: IsNull() } });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { keyHash } });
  }

  insert(key: Omit<ApiKeyEntity, 'id' | 'createdAt' | 'revokedAt'>): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create({ ...key, revokedAt: null }));
  }

  /** Keys other than `except` (the demo page's), revoked ones included when `withRevoked`. */
  countKeys(except: string, withRevoked: boolean): Promise<number> {
    return this.keys.count({ where: withRevoked ? { name: Not(except) } : { name: Not(except), revokedAt: IsNull() } });
  }

  async revokeByName(name: string, at: string): Promise<void> {
    await this.keys.update({ name, revokedAt: IsNull() }, { revokedAt: at });
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  findById(id: number): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { id } });
  }

  async update(id: number, patch: Partial<ApiKeyEntity>): Promise<void> {
    await this.keys.update({ id }, patch);
  }

  usageOf(keyId: number, month: string): Promise<UsageEntity[]> {
    return this.usage.find({ where: { keyId, month } });
  }

  private dialect(): { pg: boolean; table: string; now: string; p: (i: number) => string; n: (i: number) => string } {
    const pg = this.usage.manager.connection.options.type === 'postgres';
    return {
      pg,
      table: this.usage.metadata.tablePath,
      now: pg ? '(extract(epoch from clock_timestamp()) * 1000)' : "((julianday('now') - 2440587.5) * 86400000.0)",
      p: (i) => `$${i}`,
      n: (i) => (pg ? `$${i}::int` : `$${i}`),
    };
  }

  /** `$n` placeholders as they are (PostgreSQL), or as `?` with the values in order (better-sqlite3 takes no numbered ones). */
  private run<T>(sql: string, params: unknown[]): Promise<T> {
    if (this.dialect().pg) return this.usage.query(sql, params) as Promise<T>;
    const ordered: unknown[] = [];
    const text = sql.replace(/\$(\d+)/g, (_m, n: string) => {
      ordered.push(params[Number(n) - 1]);
      return '?';
    });
    return this.usage.query(text, ordered) as Promise<T>;
  }

  /**
   * Leases up to `want` uses (never past `limit`) for one gateway replica, in one statement, so
   * concurrent replicas can never take the same use. The uses are counted at once (`count`) and
   * marked as out on lease (`leased`); see reportQuota for how they are settled.
   */
  async leaseQuota(keyId: number, month: string, kind: QuotaKind, limit: number, want: number): Promise<QuotaLease> {
    const { table: t, now, p, n } = this.dialect();
    const take = `MIN_(${n(5)}, ${n(4)} - u.count)`;
    const sql = `INSERT INTO ${t} AS u (key_id, month, kind, count, leased, granted, updated_ms)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, MIN_(${n(5)}, ${n(4)}), MIN_(${n(5)}, ${n(4)}), MIN_(${n(5)}, ${n(4)}), ${now})
       ON CONFLICT (key_id, month, kind) DO UPDATE SET count = u.count + ${take}, leased = u.leased + ${take}, granted = ${take}, updated_ms = ${now}
       WHERE u.count < ${n(4)}
       RETURNING granted, count, leased, 0 AS age`;
    const params = [keyId, month, kind, Math.max(0, limit), Math.max(1, want)];
    const least = this.dialect().pg ? 'LEAST' : 'MIN';
    const rows = (await this.run(sql.split('MIN_').join(least), params)) as { granted: number; count: number; leased: number; age: number }[];
    if (Array.isArray(rows) && rows.length > 0 && Number(rows[0].granted) > 0) return toLease(rows[0]);
    // Refused: what is out on lease tells "taken by uses in progress" from "spent".
    const cur = (await this.run(`SELECT 0 AS granted, count, leased, ${now} - updated_ms AS age FROM ${t} WHERE key_id = ${p(1)} AND month = ${p(2)} AND kind = ${p(3)}`, [
      keyId,
      month,
      kind,
    ])) as { granted: number; count: number; leased: number; age: number }[];
    return cur.length ? toLease(cur[0]) : { granted: 0, count: 0, leased: 0, ageMs: 0 };
  }

  /**
   * Settles what a replica knows about its leased uses, in one statement: `answered` leased uses
   * got their answer (no longer out on lease), `returned` leased uses were not needed (given
   * back), `journal` uses were answered without a lease while the database was away (counted
   * now). Returns `count` after it.
   */
  async reportQuota(keyId: number, month: string, kind: QuotaKind, answered: number, returned: number, journal: number): Promise<number> {
    const { pg, table: t, now, p, n } = this.dialect();
    const max = pg ? 'GREATEST' : 'MAX';
    const rows = (await this.run(
      `INSERT INTO ${t} AS u (key_id, month, kind, count, leased, granted, updated_ms)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${max}(0, ${n(6)}), 0, 0, ${now})
       ON CONFLICT (key_id, month, kind) DO UPDATE SET count = ${max}(0, u.count + ${n(6)} - ${n(5)}), leased = ${max}(0, u.leased - ${n(4)} - ${n(5)}), updated_ms = ${now}
       RETURNING count`,
      [keyId, month, kind, answered, returned, journal],
    )) as { count: number }[];
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * PostgreSQL only: takes up to `want` whole tokens from the key's shared bucket (refilled at
   * `rate` per second up to `burst`) in one statement, so replicas can never take the same token.
   * The database's clock times the refill, so replicas' clocks need not agree. Every SET
   * expression reads the row as it was, which lets `granted` report what this statement took.
   */
  async leaseTokens(keyId: number, rate: number, burst: number, want: number): Promise<Lease> {
    const t = this.buckets.metadata.tablePath;
    const now = 'extract(epoch from now()) * 1000';
    const avail = `LEAST($2::float8, r.tokens + GREATEST(0, ${now} - r.updated_ms) / 1000.0 * $3::float8)`;
    const take = `LEAST($4::int, FLOOR(${avail}))::int`;
    const rows = (await this.buckets.query(
      `INSERT INTO ${t} AS r (key_id, tokens, updated_ms, granted)
       VALUES ($1, $2::float8 - LEAST($4::int, $2::float8), ${now}, LEAST($4::int, FLOOR($2::float8))::int)
       ON CONFLICT (key_id) DO UPDATE SET tokens = ${avail} - ${take}, granted = ${take}, updated_ms = GREATEST(r.updated_ms, ${now})
       RETURNING granted, tokens`,
      [keyId, burst, rate, want],
    )) as { granted: number; tokens: number }[];
    return { granted: Number(rows[0].granted), left: Number(rows[0].tokens) };
  }

  async ping(): Promise<void> {
    await this.keys.query('SELECT 1');
  }
}

function toLease(r: { granted: number; count: number; leased: number; age: number }): QuotaLease {
  return { granted: Number(r.granted), count: Number(r.count), leased: Number(r.leased), ageMs: Number(r.age) };
}
