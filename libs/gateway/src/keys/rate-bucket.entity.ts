import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A key's shared token bucket (distributed profile): gateway replicas lease tokens from it in
 * one atomic statement each (see ApiKeyRepository.leaseTokens), timed by the database's clock.
 */
@Entity('api_key_rate')
export class RateBucketEntity {
  @PrimaryColumn({ name: 'key_id', type: 'integer' }) keyId!: number;
  @Column({ type: 'float' }) tokens!: number;
  @Column({ name: 'updated_ms', type: 'float' }) updatedMs!: number;
  /** What the last lease got; only there so one statement can both grant and report it. */
  @Column({ type: 'integer', default: 0 }) granted!: number;
}
