import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An API key. Only its SHA-256 is stored; the key itself is shown once, at creation. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn() id!: number;

  @Column({ type: 'varchar', length: 100 }) name!: string;

  @Index({ unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  /** Generated keys: `lk_` and 4 characters of the random part, so a listing can tell keys apart; chosen keys: empty (see displayPrefix). */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 }) keyPrefix!: string;

  @Column({ name: 'monthly_search_limit', type: 'integer' }) monthlySearchLimit!: number;
  @Column({ name: 'monthly_query_limit', type: 'integer' }) monthlyQueryLimit!: number;
  /** Requests per second and bucket size; null: RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
  @Column({ name: 'rate_per_second', type: 'float', nullable: true }) ratePerSecond!: number | null;
  @Column({ name: 'rate_burst', type: 'integer', nullable: true }) rateBurst!: number | null;

  /** JSON arrays; empty means unrestricted. Origins are matched exactly (scheme://host[:port]) or as `*.example.com`. */
  @Column({ name: 'allowed_origins', type: 'text', default: '[]' }) allowedOrigins!: string;
  @Column({ name: 'allowed_ips', type: 'text', default: '[]' }) allowedIps!: string;

  @Column({ name: 'project', type: 'varchar', length: 100, nullable: true }) project!: string | null;

  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @Column({ name: 'revoked_at', type: 'varchar', length: 32, nullable: true }) revokedAt!: string | null;
}
