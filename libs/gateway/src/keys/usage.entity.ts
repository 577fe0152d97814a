import { Column, Entity, PrimaryColumn } from 'typeorm';

export type QuotaKind = 'search' | 'query';

/** One counter per key, calendar month (UTC, `YYYY-MM`) and kind. */
@Entity('api_key_usage')
export class UsageEntity {
  @PrimaryColumn({ name: 'key_id', type: 'integer' }) keyId!: number;
  @PrimaryColumn({ type: 'varchar', length: 7 }) month!: string;
  @PrimaryColumn({ type: 'varchar', length: 8 }) kind!: QuotaKind;
  @Column({ type: 'integer', default: 0 }) count!: number;
}
