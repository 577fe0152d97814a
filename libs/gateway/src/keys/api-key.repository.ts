import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { QuotaKind, UsageEntity } from './usage.entity';
import { GATEWAY_DB } from './keys.constants';

/** The only code that talks to the key and usage tables. */
@Injectable()
export class ApiKeyRepository {
  constructor(
    @InjectRepository(ApiKeyEntity, GATEWAY_DB) private readonly keys: Repository<ApiKeyEntity>,
    @InjectRepository(UsageEntity, GATEWAY_DB) private readonly usage: Repository<UsageEntity>,
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

  async ping(): Promise<void> {
    await this.keys.query('SELECT 1');
  }
}
