import { DataSource, In } from 'typeorm';
import { ApprovalStatuses, DomainError, TranslationUploadMessage } from '@lookup/contracts';
import { foldText } from '../fbt/fold';
import { ProjectsService } from '../projects/projects.service';
import { nowText, PhraseEntity, TranslationEntity } from '../store/intl.entities';
import { inTransaction, isPostgres } from '../store/intl.store';
import { parseTranslationFile } from './fbt-import';
import { phraseTokens } from './fbt-variations';
import { translationHash } from './translation.mapper';

export interface TranslationUploadOutcome {
  inserted: number;
  /** Phrase hashes of the file that this project does not have. */
  unknown_hashes: string[];
}

const CHUNK = 200;

/**
 * Imports existing translations (an fbt translation file) as `pending` translations by the
 * contributor, e.g. when a team moves to this store. Translations already stored are kept.
 */
export class TranslationUploadService {
  constructor(
    private readonly ds: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  async upload(dto: TranslationUploadMessage): Promise<TranslationUploadOutcome> {
    const { locale, items } = parseTranslationFile(dto.translations, dto.locale);
    const project = await this.projects.resolve(dto.project);
    const member = await this.projects.member(project.id, dto.contributor);
    const hashes = [...new Set(items.map((i) => i.phraseHash))];
    const phrases = new Map<string, PhraseEntity>();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      const rows = await this.ds.getRepository(PhraseEntity).find({ where: { projectId: project.id, hash: In(hashes.slice(i, i + CHUNK)) } });
      for (const r of rows) phrases.set(r.hash, r);
    }
    // As submit: a translation varies only by tokens its phrase varies by (fbt would drop it); the whole file is refused.
    const tokensOf = new Map([...phrases.values()].map((p) => [p.hash, phraseTokens(p)]));
    for (const i of items) {
      const own = tokensOf.get(i.phraseHash);
      const foreign = own ? i.tokens.filter((t) => !own.includes(t)) : [];
      if (foreign.length) throw DomainError.invalidParameter('translations', `the translation of ${i.phraseHash} varies by ${foreign.join(', ')}, which its phrase does not vary by.`);
    }
    const createdAt = nowText();
    const rows = items
      .filter((i) => phrases.has(i.phraseHash))
      .map((i) => {
        const phrase = phrases.get(i.phraseHash)!;
        return {
          projectId: project.id,
          phraseId: phrase.id,
          phraseHash: phrase.hash,
          hash: translationHash(locale, i.translation, i.tokens, i.variations),
          translation: i.translation,
          locale,
          tokens: JSON.stringify(i.tokens),
          types: JSON.stringify(i.types),
          variations: JSON.stringify(i.variations),
          author: member.email,
          approvalStatus: ApprovalStatuses.pending,
          votes: 0,
          decidedBy: null,
          decidedAt: null,
          searchText: foldText(`${i.translation} ${phrase.text}`),
          createdAt,
        };
      });
    const inserted = await inTransaction(this.ds, async (em) => {
      const repo = em.getRepository(TranslationEntity);
      const pg = isPostgres(em);
      const before = pg ? 0 : await repo.count({ where: { projectId: project.id } });
      let mine = 0;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const insert = repo.createQueryBuilder().insert().values(rows.slice(i, i + CHUNK)).orIgnore().updateEntity(false);
        // PostgreSQL: RETURNING lists only the rows this call inserted; SQLite runs these one at a time.
        if (pg) mine += ((await insert.returning(['id']).execute()).raw as unknown[]).length;
        else await insert.execute();
      }
      return pg ? mine : (await repo.count({ where: { projectId: project.id } })) - before;
    });
    return { inserted, unknown_hashes: hashes.filter((h) => !phrases.has(h)) };
  }
}
