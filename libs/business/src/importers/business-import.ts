import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { AppConfig, projectRoot } from '@lookup/shared/config';
import { BusinessDoc } from '../domain/business.doc';
import { BusinessStore } from '../store/business.store';
import { aresSubjects, aresToDoc } from './ares-json.reader';
import { readResCsvFile } from './res-csv.reader';
import { lacksDetail, mergeRpoEntities, RpoEntity, rpoEntities, rpoToDoc } from './rpo-json.reader';
import { RuianAddressIndex } from './ruian-address.index';

export interface BusinessSources {
  resCsv?: string;
  /** RUIAN address zip for the `KODADM` join; without it the RES row's own address is used. */
  ruianZip?: string;
  rpoJson?: string[];
  /** ARES single-record answers applied after the bulk load (refreshes). */
  aresJson?: string[];
  /** Where the RUIAN staging file goes (default: the OS temp dir). */
  stageDir?: string;
}

export interface BusinessImportReport {
  docs: number;
  skipped: number;
  refreshed: number;
  /** RPO entities given only as search results: no legal form and no sector (the detail answer has them). */
  rpoWithoutDetail: number;
  seconds: number;
  source: string;
}

const BATCH = 2000;

function* batchesOf(docs: BusinessDoc[]): Generator<BusinessDoc[]> {
  for (let i = 0; i < docs.length; i += BATCH) yield docs.slice(i, i + BATCH);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

interface Counts {
  skipped: number;
  rpoWithoutDetail: number;
}

/**
 * RPO files hold whole entities and are small next to RES, so they are parsed at once and
 * merged: search answers and the detail answers of the same entities may come in any order.
 */
async function* registerBatches(sources: BusinessSources, ruian: RuianAddressIndex | null, counts: Counts): AsyncGenerator<BusinessDoc[]> {
  if (sources.resCsv) yield* readResCsvFile(sources.resCsv, { addresses: ruian, batchSize: BATCH, onSkip: () => counts.skipped++ });
  const entities: RpoEntity[] = [];
  for (const path of sources.rpoJson ?? []) entities.push(...rpoEntities(readJson(path)));
  const docs: BusinessDoc[] = [];
  for (const e of mergeRpoEntities(entities)) {
    const d = rpoToDoc(e);
    if (!d) counts.skipped++;
    else {
      docs.push(d);
      if (lacksDetail(e)) counts.rpoWithoutDetail++;
    }
  }
  yield* batchesOf(docs);
}

/** A full import: every register into the store at once (readers see old or new), then the ARES refreshes. */
export async function importBusiness(store: BusinessStore, sources: BusinessSources, source: string, onProgress?: (docs: number) => void): Promise<BusinessImportReport> {
  const t0 = Date.now();
  const counts: Counts = { skipped: 0, rpoWithoutDetail: 0 };
  let ruian: RuianAddressIndex | null = null;
  const stage = join(sources.stageDir ?? tmpdir(), `ruian-adr-${process.pid}-${Date.now()}.sqlite`);
  try {
    if (sources.ruianZip) ruian = await RuianAddressIndex.build(sources.ruianZip, stage);
    const report = await store.replaceAll(registerBatches(sources, ruian, counts), onProgress);
    let refreshed = 0;
    for (const path of sources.aresJson ?? []) refreshed += await refreshFromAres(store, readJson(path));
    return { docs: report.docs, skipped: counts.skipped, refreshed, rpoWithoutDetail: counts.rpoWithoutDetail, seconds: (Date.now() - t0) / 1000, source };
  } finally {
    ruian?.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(stage + suffix, { force: true });
  }
}

/** Single-record refresh from an ARES answer: merges with what the store has (ARES lacks the size category). */
export async function refreshFromAres(store: BusinessStore, json: unknown): Promise<number> {
  const docs: BusinessDoc[] = [];
  for (const s of aresSubjects(json)) {
    const previous = s.ico ? await store.get(`cz_${String(s.ico).padStart(8, '0')}`) : null;
    const d = aresToDoc(s, previous);
    if (d) docs.push(d);
  }
  if (docs.length) await store.upsert(docs);
  return docs.length;
}

/** The small register sample bundled with the project, in the official formats. */
export function sampleBusinessSources(): BusinessSources {
  const dir = join(projectRoot(), 'libs/business/src/fixtures');
  return {
    resCsv: join(dir, 'cz/res_data.csv'),
    rpoJson: [join(dir, 'sk/rpo-entities.json')],
    aresJson: [join(dir, 'cz/ares-ekonomicke-subjekty.json')],
  };
}

const list = (v?: string) => (v ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : []);

/** Official files named in the configuration; null when none is. */
export function configuredBusinessSources(config: AppConfig): BusinessSources | null {
  const src: BusinessSources = {
    resCsv: config.BUSINESS_RES_CSV,
    ruianZip: config.BUSINESS_RUIAN_ZIP,
    rpoJson: list(config.BUSINESS_RPO_JSON),
    aresJson: list(config.BUSINESS_ARES_JSON),
    stageDir: config.DATA_DIR,
  };
  const named = [src.resCsv, src.ruianZip, ...(src.rpoJson ?? []), ...(src.aresJson ?? [])].filter((p): p is string => !!p);
  if (!src.resCsv && src.rpoJson!.length === 0) return null;
  const missing = named.filter((p) => !existsSync(p));
  if (missing.length) throw new Error(`business data files not found: ${missing.join(', ')}`);
  return src;
}
