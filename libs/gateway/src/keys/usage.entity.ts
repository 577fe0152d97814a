import { Column, Entity, PrimaryColumn } from 'typeorm';

export type QuotaKind = 'search' | 'query';

/**
 * One counter per key, calendar month (UTC, `YYYY-MM`) and kind. `count`: uses answered plus
 * uses out on lease to gateway replicas (the limit is checked against it); equal to the uses
 * answered once the leases are settled. See QuotaLeases1764500000000.
 */
@Entity('api_key_usage')
export class UsageEntity {
  @PrimaryColumn({ name: 'key_id', type: 'integer' }) keyId!: number;
  @PrimaryColumn({ type: 'varchar', length: 7 }) month!: string;
  @PrimaryColumn({ type: 'varchar', length: 8 }) kind!: QuotaKind;
  @Column({ type: 'integer', default: 0 }) count!: number;
  /** Uses out on lease whose outcome the database does not know yet. */
  @Column({ type: 'integer', default: 0 }) leased!: number;
  /** What the last lease took; only there so one statement can both grant and report it. */
  @Column({ type: 'integer', default: 0 }) granted!: number;
  /** The database's clock (ms) at the last lease or report. */
  @Column({ name: 'updated_ms', type: 'float', default: 0 }) updatedMs!: number;
}
