import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { Phrase, PhraseQueryMessage, PhraseUploadMessage } from '@lookup/contracts';
import { foldText, likePatterns } from '../fbt/fold';
import { ProjectsService } from '../projects/projects.service';
import { nowText, PhraseEntity } from '../store/intl.entities';
import { inTransaction, isPostgres } from '../store/intl.store';
import { HashMismatch, NativeText, ParsedNativeStrings, parseNativeStrings } from './native-strings.parser';
import { toPhrase } from './phrase.mapper';

export interface UploadOutcome {
  inserted: number;
  /** Only with hash_check=report. */
  hash_mismatches?: HashMismatch[];
}

const CHUNK = 500;

export class PhrasesService {
  constructor(
    private readonly ds: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Saves the texts not stored yet, all or nothing. A phrase already stored (same project and
   * hash) is left as it is, so uploading the same collection again inserts nothing.
   */
  async upload(dto: PhraseUploadMessage): Promise<UploadOutcome> {
    const parsed = parseNativeStrings(dto.native_strings, dto.hash_check ?? 'strict');
    const project = await this.projects.resolve(dto.project);
    const createdAt = nowText();
    const inserted = await inTransaction(this.ds, async (em) => {
      const repo = em.getRepository(PhraseEntity);
      const hashes = [...new Set(parsed.texts.map((t) => t.hash))];
      const idOf = () => idsOfHashes(em, repo.metadata.tablePath, project.id, hashes);
      const known = await idOf();
      const fresh = new Map<string, NativeText>();
      for (const t of parsed.texts) if (!known.has(t.hash) && !fresh.has(t.hash)) fresh.set(t.hash, t);
      const rows = [...fresh.values()].map((t) => ({
        projectId: project.id,
        hash: t.hash,
        text: t.text,
        description: t.description,
        author: t.author,
        fbtProject: t.project,
        type: t.type,
        jsfbt: t.jsfbt,
        searchText: foldText(`${t.text} ${t.description}`),
        createdAt,
      }));
      const ours = new Set<string>();
      for (let i = 0; i < rows.length; i += CHUNK) {
        for (const hash of await insertIgnoringKnown(em, repo.metadata.tablePath, rows.slice(i, i + CHUNK))) ours.add(hash);
      }
      await this.linkParents(em.getRepository(PhraseEntity), parsed, ours, await idOf());
      return ours.size;
    });
    return dto.hash_check === 'report' ? { inserted, hash_mismatches: parsed.mismatches } : { inserted };
  }

  /** fbt's childParentMappings: a child's parent is the first text of its parent phrase. */
  private async linkParents(repo: Repository<PhraseEntity>, parsed: ParsedNativeStrings, ours: Set<string>, ids: Map<string, number>): Promise<void> {
    const firstIdOf = new Map<number, number>();
    for (const t of parsed.texts) if (!firstIdOf.has(t.element)) firstIdOf.set(t.element, ids.get(t.hash)!);
    const byParent = new Map<number, number[]>();
    for (const t of parsed.texts) {
      const parentElement = parsed.parents.get(t.element);
      const parentId = parentElement === undefined ? undefined : firstIdOf.get(parentElement);
      if (parentId === undefined || !ours.has(t.hash)) continue;
      byParent.set(parentId, [...(byParent.get(parentId) ?? []), ids.get(t.hash)!]);
    }
    for (const [parentId, children] of byParent) await repo.update({ id: In(children) }, { parentId });
  }

  async query(dto: PhraseQueryMessage): Promise<Phrase[]> {
    const project = await this.projects.resolve(dto.project);
    const qb = this.ds.getRepository(PhraseEntity).createQueryBuilder('p').where('p.projectId = :pid', { pid: project.id });
    likePatterns(dto.query ?? '').forEach((pattern, i) => qb.andWhere(`p.searchText LIKE :w${i} ESCAPE '\\'`, { [`w${i}`]: pattern }));
    const rows = await qb.orderBy('p.id', 'ASC').getMany();
    return rows.map(toPhrase);
  }
}

const COLUMNS = ['project_id', 'hash', 'text', 'description', 'author', 'fbt_project', 'type', 'jsfbt', 'search_text', 'created_at'] as const;
type PhraseRow = Omit<PhraseEntity, 'id' | 'parentId'>;

/**
 * One multi-row INSERT per chunk (TypeORM's builder costs more than the database here). Rows
 * whose hash is already in the project are skipped; answers the hashes this call inserted.
 */
async function insertIgnoringKnown(em: EntityManager, table: string, rows: PhraseRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const pg = isPostgres(em);
  const params: unknown[] = [];
  const tuples = rows.map((r) => {
    const values = [r.projectId, r.hash, r.text, r.description, r.author, r.fbtProject, r.type, r.jsfbt, r.searchText, r.createdAt];
    const marks = values.map((v) => {
      params.push(v);
      return pg ? `$${params.length}` : '?';
    });
    return `(${marks.join(', ')})`;
  });
  const cols = COLUMNS.join(', ');
  if (pg) {
    // A concurrent upload of the same phrases may have won some rows: RETURNING lists ours.
    const out = (await em.query(`INSERT INTO ${table} (${cols}) VALUES ${tuples.join(', ')} ON CONFLICT (project_id, hash) DO NOTHING RETURNING hash`, params)) as Array<{ hash: string }>;
    return out.map((r) => r.hash);
  }
  // SQLite transactions are serialised (inTransaction) and these hashes were not there: all ours.
  await em.query(`INSERT OR IGNORE INTO ${table} (${cols}) VALUES ${tuples.join(', ')}`, params);
  return rows.map((r) => r.hash);
}

/** Ids of the given hashes in a project (one query on PostgreSQL, chunks on SQLite). */
async function idsOfHashes(em: EntityManager, table: string, projectId: number, hashes: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const add = (rows: Array<{ id: number; hash: string }>) => rows.forEach((r) => ids.set(r.hash, Number(r.id)));
  if (isPostgres(em)) {
    add(await em.query(`SELECT id, hash FROM ${table} WHERE project_id = $1 AND hash = ANY($2)`, [projectId, hashes]));
    return ids;
  }
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const chunk = hashes.slice(i, i + CHUNK);
    add(await em.query(`SELECT id, hash FROM ${table} WHERE project_id = ? AND hash IN (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]));
  }
  return ids;
}
