import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { ApprovalStatus, MemberRole } from '@lookup/contracts';

/*
 * Times are UTC text `YYYY-MM-DD HH:MM:SS` (the API's format), so PostgreSQL and SQLite store
 * and return the same thing. Arrays (tokens, types, variations) are JSON text for the same reason.
 */

@Entity('intl_projects')
export class ProjectEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100, unique: true }) name!: string;
  @Column({ name: 'created_at', type: 'varchar', length: 19 }) createdAt!: string;
}

@Entity('intl_members')
@Index(['projectId', 'email'], { unique: true })
export class MemberEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'project_id', type: 'integer' }) projectId!: number;
  /** Lower-cased. */
  @Column({ type: 'varchar', length: 254 }) email!: string;
  @Column({ type: 'varchar', length: 16 }) role!: MemberRole;
  @Column({ name: 'created_at', type: 'varchar', length: 19 }) createdAt!: string;
}

@Entity('intl_phrases')
@Index(['projectId', 'hash'], { unique: true })
export class PhraseEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'project_id', type: 'integer' }) projectId!: number;
  @Column({ type: 'varchar', length: 100 }) hash!: string;
  @Column({ type: 'text' }) text!: string;
  @Column({ type: 'text' }) description!: string;
  @Column({ type: 'varchar', length: 255 }) author!: string;
  /** fbt's own `project` of the phrase (from its @fbt docblock), not the API project. */
  @Column({ name: 'fbt_project', type: 'varchar', length: 255 }) fbtProject!: string;
  @Column({ type: 'varchar', length: 8 }) type!: 'text' | 'table';
  @Column({ type: 'text' }) jsfbt!: string;
  @Column({ name: 'parent_id', type: 'integer', nullable: true }) parentId!: number | null;
  @Column({ name: 'search_text', type: 'text' }) searchText!: string;
  @Column({ name: 'created_at', type: 'varchar', length: 19 }) createdAt!: string;
}

@Entity('intl_translations')
@Index(['phraseId', 'hash'], { unique: true })
@Index(['projectId', 'locale', 'approvalStatus'])
export class TranslationEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'project_id', type: 'integer' }) projectId!: number;
  @Column({ name: 'phrase_id', type: 'integer' }) phraseId!: number;
  @Column({ name: 'phrase_hash', type: 'varchar', length: 100 }) phraseHash!: string;
  @Column({ type: 'varchar', length: 32 }) hash!: string;
  @Column({ type: 'text' }) translation!: string;
  @Column({ type: 'varchar', length: 8 }) locale!: string;
  @Column({ type: 'text' }) tokens!: string;
  @Column({ type: 'text' }) types!: string;
  @Column({ type: 'text' }) variations!: string;
  /** Lower-cased e-mail of the member who submitted it. */
  @Column({ type: 'varchar', length: 254 }) author!: string;
  @Column({ name: 'approval_status', type: 'varchar', length: 10 }) approvalStatus!: ApprovalStatus;
  @Column({ type: 'integer', default: 0 }) votes!: number;
  @Column({ name: 'decided_by', type: 'varchar', length: 254, nullable: true }) decidedBy!: string | null;
  @Column({ name: 'decided_at', type: 'varchar', length: 19, nullable: true }) decidedAt!: string | null;
  @Column({ name: 'search_text', type: 'text' }) searchText!: string;
  @Column({ name: 'created_at', type: 'varchar', length: 19 }) createdAt!: string;
}

/** One row per (translation, member): the primary key is what makes a second vote impossible. */
@Entity('intl_votes')
export class VoteEntity {
  @PrimaryColumn({ name: 'translation_id', type: 'integer' }) translationId!: number;
  @PrimaryColumn({ name: 'member_id', type: 'integer' }) memberId!: number;
  @Column({ name: 'created_at', type: 'varchar', length: 19 }) createdAt!: string;
}

export const INTL_ENTITIES = [ProjectEntity, MemberEntity, PhraseEntity, TranslationEntity, VoteEntity];

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export function nowText(d = new Date()): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
