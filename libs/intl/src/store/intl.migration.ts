import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const createdAt = { name: 'created_at', type: 'varchar', length: '19' };
const fk = (column: string, table: string) =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** Projects, members, phrases, translations, votes; schema-builder calls so PostgreSQL and SQLite share it. */
export class CreateIntl1763800000000 implements MigrationInterface {
  name = 'CreateIntl1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({ name: 'intl_projects', columns: [id, { name: 'name', type: 'varchar', length: '100', isUnique: true }, createdAt] }),
    );
    await q.createTable(
      new Table({
        name: 'intl_members',
        columns: [id, { name: 'project_id', type: 'integer' }, { name: 'email', type: 'varchar', length: '254' }, { name: 'role', type: 'varchar', length: '16' }, createdAt],
        indices: [new TableIndex({ columnNames: ['project_id', 'email'], isUnique: true })],
        foreignKeys: [fk('project_id', 'intl_projects')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'intl_phrases',
        columns: [
          id,
          { name: 'project_id', type: 'integer' },
          { name: 'hash', type: 'varchar', length: '100' },
          { name: 'text', type: 'text' },
          { name: 'description', type: 'text' },
          { name: 'author', type: 'varchar', length: '255' },
          { name: 'fbt_project', type: 'varchar', length: '255' },
          { name: 'type', type: 'varchar', length: '8' },
          { name: 'jsfbt', type: 'text' },
          { name: 'parent_id', type: 'integer', isNullable: true },
          { name: 'search_text', type: 'text' },
          createdAt,
        ],
        indices: [new TableIndex({ columnNames: ['project_id', 'hash'], isUnique: true })],
        foreignKeys: [fk('project_id', 'intl_projects')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'intl_translations',
        columns: [
          id,
          { name: 'project_id', type: 'integer' },
          { name: 'phrase_id', type: 'integer' },
          { name: 'phrase_hash', type: 'varchar', length: '100' },
          { name: 'hash', type: 'varchar', length: '32' },
          { name: 'translation', type: 'text' },
          { name: 'locale', type: 'varchar', length: '8' },
          { name: 'tokens', type: 'text' },
          { name: 'types', type: 'text' },
          { name: 'variations', type: 'text' },
          { name: 'author', type: 'varchar', length: '254' },
          { name: 'approval_status', type: 'varchar', length: '10' },
          { name: 'votes', type: 'integer', default: 0 },
          { name: 'decided_by', type: 'varchar', length: '254', isNullable: true },
          { name: 'decided_at', type: 'varchar', length: '19', isNullable: true },
          { name: 'search_text', type: 'text' },
          createdAt,
        ],
        indices: [
          new TableIndex({ columnNames: ['phrase_id', 'hash'], isUnique: true }),
          new TableIndex({ columnNames: ['project_id', 'locale', 'approval_status'] }),
        ],
        foreignKeys: [fk('project_id', 'intl_projects'), fk('phrase_id', 'intl_phrases')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'intl_votes',
        columns: [
          { name: 'translation_id', type: 'integer', isPrimary: true },
          { name: 'member_id', type: 'integer', isPrimary: true },
          createdAt,
        ],
        foreignKeys: [fk('translation_id', 'intl_translations'), fk('member_id', 'intl_members')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['intl_votes', 'intl_translations', 'intl_phrases', 'intl_members', 'intl_projects']) await q.dropTable(t);
  }
}
