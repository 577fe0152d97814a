import { DataSource, EntityManager, In } from 'typeorm';
import {
  ApprovalStatus,
  ApprovalStatuses,
  BulkDecisionMessage,
  CountResult,
  DomainError,
  FbtTranslationGroup,
  Translation,
  TranslationActionMessage,
  TranslationExportMessage,
  TranslationQueryMessage,
  TranslationSubmitMessage,
} from '@lookup/contracts';
import { foldText, likePatterns } from '../fbt/fold';
import { ProjectsService } from '../projects/projects.service';
import { nowText, PhraseEntity, TranslationEntity, VoteEntity } from '../store/intl.entities';
import { inTransaction, isPostgres } from '../store/intl.store';
import { buildTranslationGroup } from './fbt-export';
import { phraseTokens, storedTypeOfSubmit } from './fbt-variations';
import { toTranslation, translationHash } from './translation.mapper';

export class TranslationsService {
  constructor(
    private readonly ds: DataSource,
    private readonly projects: ProjectsService,
    /** INTL_APPROVAL_VOTES */
    private readonly approvalVotes: number,
  ) {}

  async submit(dto: TranslationSubmitMessage): Promise<Translation> {
    if (dto.phash !== undefined && dto.phash !== dto.hash) throw DomainError.invalidParameter('phash', 'must equal hash when sent.');
    const tokens = dto.tokens ?? [];
    const types = (dto.types ?? []).map(storedTypeOfSubmit);
    const variations = dto.variations ?? [];
    if (types.length !== tokens.length || variations.length !== tokens.length) {
      throw DomainError.invalidParameter('variations', `tokens, types and variations must have one entry per token (got ${tokens.length}, ${types.length}, ${variations.length}).`);
    }
    if (new Set(tokens).size !== tokens.length) throw DomainError.invalidParameter('tokens', 'a token is named twice.');
    if (!dto.translation.trim()) throw DomainError.missingParameter('translation');
    const project = await this.projects.resolve(dto.project);
    const member = await this.projects.member(project.id, dto.contributor);
    const phrase = await this.ds.getRepository(PhraseEntity).findOne({ where: { projectId: project.id, hash: dto.hash } });
    if (!phrase) throw DomainError.notFound('hash', `Phrase ${dto.hash}`);
    const own = phraseTokens(phrase);
    const foreign = tokens.filter((t) => !own.includes(t));
    if (foreign.length) {
      const has = own.length ? `its tokens are ${own.join(', ')}` : 'it has no tokens';
      throw DomainError.invalidParameter('tokens', `the phrase does not vary by ${foreign.join(', ')} (${has}): fbt would drop such a translation.`);
    }
    const hash = translationHash(dto.locale, dto.translation, tokens, variations);
    const saved = await inTransaction(this.ds, async (em) => {
      const repo = em.getRepository(TranslationEntity);
      const values = {
        projectId: project.id,
        phraseId: phrase.id,
        phraseHash: phrase.hash,
        hash,
        translation: dto.translation,
        locale: dto.locale,
        tokens: JSON.stringify(tokens),
        types: JSON.stringify(types),
        variations: JSON.stringify(variations),
        author: member.email,
        approvalStatus: ApprovalStatuses.pending,
        votes: 0,
        decidedBy: null,
        decidedAt: null,
        searchText: foldText(`${dto.translation} ${phrase.text}`),
        createdAt: nowText(),
      };
      // The same submission again (or concurrently) keeps the first one.
      await repo.createQueryBuilder().insert().values(values).orIgnore().execute();
      return repo.findOneOrFail({ where: { phraseId: phrase.id, hash } });
    });
    return toTranslation(saved, await this.hasVoted(saved.id, member.id));
  }

  async query(dto: TranslationQueryMessage): Promise<Translation[]> {
    const project = await this.projects.resolve(dto.project);
    const member = dto.contributor ? await this.projects.member(project.id, dto.contributor) : null;
    const qb = this.ds.getRepository(TranslationEntity).createQueryBuilder('t').where('t.projectId = :pid', { pid: project.id });
    const patterns = likePatterns(dto.query ?? '');
    if (patterns.length) patterns.forEach((p, i) => qb.andWhere(`t.searchText LIKE :w${i} ESCAPE '\\'`, { [`w${i}`]: p }));
    else qb.andWhere('t.approvalStatus = :approved', { approved: ApprovalStatuses.approved });
    if (dto.locale) qb.andWhere('t.locale = :locale', { locale: dto.locale });
    if (dto.hash) qb.andWhere('t.phraseHash = :hash', { hash: dto.hash });
    const rows = await qb.orderBy('t.id', 'ASC').getMany();
    const voted = member ? await this.votedAmong(member.id, rows.map((r) => r.id)) : new Set<number>();
    return rows.map((r) => toTranslation(r, voted.has(r.id)));
  }

  /**
   * One vote per member. The translation row is locked first (PostgreSQL), so votes on one
   * translation are counted one at a time and the vote that reaches INTL_APPROVAL_VOTES
   * approves it exactly once, however many arrive together.
   */
  async vote(dto: TranslationActionMessage): Promise<Translation> {
    const project = await this.projects.resolve(dto.project);
    const member = await this.projects.member(project.id, dto.contributor);
    const saved = await inTransaction(this.ds, async (em) => {
      const t = await this.lockTranslation(em, project.id, dto.trid);
      if (t.approvalStatus === ApprovalStatuses.rejected) throw DomainError.invalidParameter('trid', `translation ${t.id} was rejected and takes no votes.`);
      if (t.author === member.email) throw DomainError.invalidParameter('contributor', 'a contributor cannot vote for their own translation.');
      const votes = em.getRepository(VoteEntity);
      if (await votes.findOne({ where: { translationId: t.id, memberId: member.id } })) {
        throw DomainError.invalidParameter('contributor', `${member.email} has already voted for translation ${t.id}.`);
      }
      const now = nowText();
      await votes.insert({ translationId: t.id, memberId: member.id, createdAt: now });
      t.votes += 1;
      if (t.approvalStatus === ApprovalStatuses.pending && t.votes >= this.approvalVotes) {
        t.approvalStatus = ApprovalStatuses.approved;
        t.decidedAt = now;
        t.decidedBy = null;
      }
      await em.getRepository(TranslationEntity).update({ id: t.id }, { votes: t.votes, approvalStatus: t.approvalStatus, decidedAt: t.decidedAt, decidedBy: t.decidedBy });
      return t;
    });
    return toTranslation(saved, true);
  }

  approve(dto: TranslationActionMessage): Promise<Translation> {
    return this.decide(dto, ApprovalStatuses.approved);
  }

  reject(dto: TranslationActionMessage): Promise<Translation> {
    return this.decide(dto, ApprovalStatuses.rejected);
  }

  /** An administrator decides every pending translation of a locale at once. */
  async decideLocale(dto: BulkDecisionMessage, status: ApprovalStatus): Promise<CountResult> {
    const project = await this.projects.resolve(dto.project);
    const admin = await this.projects.administrator(project.id, dto.contributor);
    const count = await inTransaction(this.ds, async (em) => {
      const res = await em
        .getRepository(TranslationEntity)
        .createQueryBuilder()
        .update()
        .set({ approvalStatus: status, decidedBy: admin.email, decidedAt: nowText() })
        .where('project_id = :pid AND locale = :locale AND approval_status = :pending', { pid: project.id, locale: dto.locale, pending: ApprovalStatuses.pending })
        .execute();
      return res.affected ?? 0;
    });
    return { count };
  }

  async export(dto: TranslationExportMessage): Promise<FbtTranslationGroup> {
    const project = await this.projects.resolve(dto.project);
    const rows = await this.ds.getRepository(TranslationEntity).find({
      where: { projectId: project.id, locale: dto.locale, approvalStatus: ApprovalStatuses.approved },
      order: { id: 'ASC' },
    });
    return buildTranslationGroup(
      dto.locale,
      rows.map((r) => ({
        id: r.id,
        phraseHash: r.phraseHash,
        translation: r.translation,
        tokens: JSON.parse(r.tokens) as string[],
        types: JSON.parse(r.types) as number[],
        variations: JSON.parse(r.variations) as number[],
        votes: r.votes,
        decidedAt: r.decidedAt,
      })),
    );
  }

  private async decide(dto: TranslationActionMessage, status: ApprovalStatus): Promise<Translation> {
    const project = await this.projects.resolve(dto.project);
    const admin = await this.projects.administrator(project.id, dto.contributor);
    const saved = await inTransaction(this.ds, async (em) => {
      const t = await this.lockTranslation(em, project.id, dto.trid);
      t.approvalStatus = status;
      t.decidedBy = admin.email;
      t.decidedAt = nowText();
      await em.getRepository(TranslationEntity).update({ id: t.id }, { approvalStatus: status, decidedBy: t.decidedBy, decidedAt: t.decidedAt });
      return t;
    });
    return toTranslation(saved, await this.hasVoted(saved.id, admin.id));
  }

  private async lockTranslation(em: EntityManager, projectId: number, id: number): Promise<TranslationEntity> {
    const qb = em.getRepository(TranslationEntity).createQueryBuilder('t').where('t.id = :id AND t.projectId = :pid', { id, pid: projectId });
    if (isPostgres(em)) qb.setLock('pessimistic_write');
    const t = await qb.getOne();
    if (!t) throw DomainError.notFound('trid', `Translation ${id}`);
    return t;
  }

  private async hasVoted(translationId: number, memberId: number): Promise<boolean> {
    return (await this.ds.getRepository(VoteEntity).count({ where: { translationId, memberId } })) > 0;
  }

  private async votedAmong(memberId: number, ids: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.ds.getRepository(VoteEntity).find({ where: { memberId, translationId: In(ids.slice(i, i + 500)) } });
      for (const r of rows) out.add(r.translationId);
    }
    return out;
  }
}

