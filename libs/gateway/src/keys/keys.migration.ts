import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

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
