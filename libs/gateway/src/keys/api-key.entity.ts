import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An API key. Only its SHA-256 is stored; the key itself is shown once, at creation. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn() id!: number;

  @Column({ type: 'varchar', length: 100 }) name!: string;

  @Index({ unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  /** First characters of the key, so a listing can tell keys apart without revealing them. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 }) keyPrefix!: string;

  @Column({ name: 'monthly_search_limit', type: 'integer' }) monthlySearchLimit!: number;
  @Column({ name: 'monthly_query_limit', type: 'integer' }) monthlyQueryLimit!: number;

  /** JSON arrays; empty means unrestricted. Origins are matched exactly (scheme://host[:port]) or as `*.example.com`. */
  @Column({ name: 'allowed_origins', type: 'text', default: '[]' }) allowedOrigins!: string;
  @Column({ name: 'allowed_ips', type: 'text', default: '[]' }) allowedIps!: string;

  @Column({ name: 'project', type: 'varchar', length: 100, nullable: true }) project!: string | null;

  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @Column({ name: 'revoked_at', type: 'varchar', length: 32, nullable: true }) revokedAt!: string | null;
}
