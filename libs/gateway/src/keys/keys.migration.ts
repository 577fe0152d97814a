import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';

/** Keys and usage counters; schema-builder calls so PostgreSQL and SQLite share it. */
export class CreateApiKeys1763700000000 implements MigrationInterface {
  name = 'CreateApiKeys1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'key_prefix', type: 'varchar', length: '16' },
          { name: 'monthly_search_limit', type: 'integer' },
          { name: 'monthly_query_limit', type: 'integer' },
          { name: 'allowed_origins', type: 'text', default: "'[]'" },
          { name: 'allowed_ips', type: 'text', default: "'[]'" },
          { name: 'project', type: 'varchar', length: '100', isNullable: true },
          { name: 'created_at', type: q.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'revoked_at', type: 'varchar', length: '32', isNullable: true },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_key_usage',
        columns: [
          { name: 'key_id', type: 'integer', isPrimary: true },
          { name: 'month', type: 'varchar', length: '7', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '8', isPrimary: true },
          { name: 'count', type: 'integer', default: 0 },
        ],
      }),
    );
    await q.createForeignKey(
      'api_key_usage',
      new TableForeignKey({ columnNames: ['key_id'], referencedTableName: 'api_keys', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_key_usage');
    await q.dropTable('api_keys');
  }
}

/**
 * Issue 16: `key_prefix` kept 8 plain characters (all of a short chosen key). Now it keeps only
 * `lk_` + 4 characters of a generated key's random part, and nothing of a chosen one. Adds the
 * per-key request rate and the shared token buckets gateway replicas lease from (PostgreSQL).
 */
export class KeyPrefixAndRateLimits1764000000000 implements MigrationInterface {
  name = 'KeyPrefixAndRateLimits1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // substr and CASE read the same in PostgreSQL and SQLite; `LIKE 'lk_%'` would not ('_' is a wildcard).
    const schema = (q.connection.options as { schema?: string }).schema;
    const table = schema ? `${q.connection.driver.escape(schema)}.api_keys` : 'api_keys';
    await q.query(`UPDATE ${table} SET key_prefix = CASE WHEN substr(key_prefix, 1, 3) = 'lk_' THEN substr(key_prefix, 1, 7) ELSE '' END`);
    await q.addColumns('api_keys', [
      new TableColumn({ name: 'rate_per_second', type: 'float', isNullable: true }),
      new TableColumn({ name: 'rate_burst', type: 'integer', isNullable: true }),
    ]);
    await q.createTable(
      new Table({
        name: 'api_key_rate',
        columns: [
          { name: 'key_id', type: 'integer', isPrimary: true },
          { name: 'tokens', type: 'float' },
          { name: 'updated_ms', type: 'float' },
          { name: 'granted', type: 'integer', default: 0 },
        ],
      }),
    );
    await q.createForeignKey(
      'api_key_rate',
      new TableForeignKey({ columnNames: ['key_id'], referencedTableName: 'api_keys', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_key_rate');
    await q.dropColumn('api_keys', 'rate_burst');
    await q.dropColumn('api_keys', 'rate_per_second');
  }
}

/**
 * Issues 19/20: monthly quotas are leased by gateway replicas, N uses per statement. `count`
 * stays what the limit is checked against: uses answered plus uses out on lease (unused ones are
 * subtracted when returned, so once leases are settled `count` is exactly the uses answered).
 * `leased`: uses out on lease whose outcome the database does not know yet (unused, in flight,
 * or answered and not yet reported). `granted`: what the last lease took (lets one statement
 * both grant and report it). `updated_ms`: the database's clock at the last lease or report, so
 * a replica can tell uses held by live replicas from ones a crashed replica left behind.
 */
export class QuotaLeases1764500000000 implements MigrationInterface {
  name = 'QuotaLeases1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('api_key_usage', [
      new TableColumn({ name: 'leased', type: 'integer', default: 0 }),
      new TableColumn({ name: 'granted', type: 'integer', default: 0 }),
      new TableColumn({ name: 'updated_ms', type: 'float', default: 0 }),
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('api_key_usage', 'updated_ms');
    await q.dropColumn('api_key_usage', 'granted');
    await q.dropColumn('api_key_usage', 'leased');
  }
}
