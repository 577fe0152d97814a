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

  /**
   * Counts one use if the counter is below `limit`, in a single statement, so concurrent
   * requests (and several gateway replicas) can never pass the limit together.
   */
  async consume(keyId: number, month: string, kind: QuotaKind, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    const table = this.usage.metadata.tablePath;
    const pg = this.usage.manager.connection.options.type === 'postgres';
    const p = pg ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
    const rows: unknown = await this.usage.query(
      `INSERT INTO ${table} (key_id, month, kind, count) VALUES (${p[0]}, ${p[1]}, ${p[2]}, 1)
       ON CONFLICT (key_id, month, kind) DO UPDATE SET count = ${table}.count + 1
       WHERE ${table}.count < ${p[3]} RETURNING count`,
      [keyId, month, kind, limit],
    );
    return Array.isArray(rows) && rows.length > 0;
  }

  /** Gives back a use that did not get an answer (server fault). */
  async refund(keyId: number, month: string, kind: QuotaKind): Promise<void> {
    await this.usage
      .createQueryBuilder()
      .update()
      .set({ count: () => 'count - 1' })
      .where('key_id = :keyId AND month = :month AND kind = :kind AND count > 0', { keyId, month, kind })
      .execute();
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
