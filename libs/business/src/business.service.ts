import { Inject, Injectable } from '@nestjs/common';
import {
  Business,
  BUSINESS_DEFAULT_LIMIT,
  BusinessDetailRequest,
  BusinessIdentifierRequest,
  BusinessQueryRequest,
  BusinessSearchBase,
  DomainError,
} from '@lookup/contracts';
import { timeEngine } from '@lookup/shared/metrics';
import { toBusiness } from './domain/business.mapper';
import { BusinessDoc } from './domain/business.doc';
import { BUSINESS_STORE, BusinessFilter, BusinessStore } from './store/business.store';
import { lenientMatch, parseNameQuery, strictMatch } from './search/name-query';
import { parseCinQuery, rankByCin, rankByName } from './search/business-ranking';
import { highlightName } from './search/business-highlight';

/** Candidates asked of the engine per source: enough for the ranker to choose the best 20 from. */
export const CANDIDATES = 200;

/** The business pipeline: parameters -> engine candidates -> shared ranking -> highlight -> API objects. */
@Injectable()
export class BusinessService {
  constructor(@Inject(BUSINESS_STORE) private readonly store: BusinessStore) {}

  /** A store call, timed per engine and operation (`lookup_engine_duration_seconds`). */
  private timed<T>(operation: string, call: () => Promise<T>): Promise<T> {
    return timeEngine(this.store.engine, operation, call);
  }

  private filter(dto: BusinessSearchBase): BusinessFilter {
    return { countries: dto.country && dto.country.length > 0 ? dto.country : null, activeOnly: dto.active === true };
  }

  async byName(dto: BusinessQueryRequest): Promise<Business[]> {
    const limit = dto.limit ?? BUSINESS_DEFAULT_LIMIT;
    const q = parseNameQuery(dto.query);
    if (!q) throw DomainError.invalidParameter('query', 'the name must contain letters or digits.');
    const filter = this.filter(dto);
    const strict = strictMatch(q);
    const [starts, words] = await Promise.all([
      // In name-key order the exact name comes first, then the longer names that start with it.
      this.timed('business.byNamePrefix', () => this.store.byNamePrefix(q.key, filter, CANDIDATES)),
      this.timed('business.byTokens', () => this.store.byTokens(strict.words, strict.prefixes, filter, CANDIDATES)),
    ]);
    let candidates: BusinessDoc[] = [...starts, ...words];
    let ranked = rankByName(candidates, q, limit);
    // The lenient pass (every word a prefix) only when the strict one finds nothing: it is the
    // expensive one on a large register, and strict answers are the better ones.
    const lenient = lenientMatch(q);
    if (ranked.length === 0 && lenient) {
      candidates = [...candidates, ...(await this.timed('business.byTokens', () => this.store.byTokens(lenient.words, lenient.prefixes, filter, CANDIDATES)))];
      ranked = rankByName(candidates, q, limit);
    }
    return ranked.map((r) => toBusiness(r.doc, highlightName(r.doc.name, q)));
  }

  async byIdentifier(dto: BusinessIdentifierRequest): Promise<Business[]> {
    const q = parseCinQuery(dto.query);
    if (!q) throw DomainError.invalidParameter('query', 'an organisation identification number is up to 8 digits.');
    const docs = await this.timed('business.byCin', () => this.store.byCin(q.digits, q.key, this.filter(dto), CANDIDATES));
    // The widget shows `highlight` in the name slot and the IČO beside it: an identifier search
    // highlights nothing in the name (the query matched the id, shown whole in `cin`).
    return rankByCin(docs, q, dto.limit ?? BUSINESS_DEFAULT_LIMIT).map((r) => toBusiness(r.doc));
  }

  /** An array of one (spec); an unknown id is a 404. */
  async detail(dto: BusinessDetailRequest): Promise<Business[]> {
    const doc = await this.timed('business.get', () => this.store.get(dto.business_id));
    if (!doc) throw DomainError.notFound('business_id', `Business ${dto.business_id}`);
    return [toBusiness(doc)];
  }

  async health(): Promise<{ status: 'ok'; engine: string }> {
    await this.store.ping();
    return { status: 'ok', engine: this.store.engine };
  }
}
