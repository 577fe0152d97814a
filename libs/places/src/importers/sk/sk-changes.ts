import { createHash } from 'node:crypto';
import { PlaceDoc, placeId } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { MAX_REPORTED_ERRORS, SkCatalogueJoin } from '../address-import';
import { SkAddressFold, SK_ADDRESS_TYPES } from './sk-address.fold';
import { SK_CATALOGUE_TYPES } from './sk-catalogue.builder';
import { SkChangeState } from './sk-changes.state';
import { readRegisterChanges, RegisterChange } from './sk-register-xml.reader';

/** What one change batch does to the index. */
export interface SkChangePlan {
  /** Records in the batch (of the types an address needs) and how many the state did not have. */
  records: number;
  newRecords: RegisterChange[];
  /** New or changed documents (addresses and the streets, postal codes and areas derived from them). */
  upserts: PlaceDoc[];
  /** Documents that no longer exist (an address whose entrance was deleted or ended, an emptied street or postal code). */
  deletes: string[];
  /** Hashes to remember once the index holds the upserts. */
  hashes: [string, string][];
  /** Entrances that cannot be placed (unknown building, street or municipality). */
  skipped: number;
  errors: string[];
  /**
   * With a baseline (see planSkChanges): its records and its documents' hashes, for the state to
   * hold as if the baseline had been applied before the batch (commit them with the batch's).
   */
  baseline: { records: RegisterChange[]; hashes: [string, string][] };
}

/**
 * Municipalities, counties and regions come from the catalogue import too: one that loses its
 * last address keeps its last document (weight and centroid are then stale until the next full
 * import) rather than vanishing from the catalogue.
 */
const NEVER_DELETED = /^sk_[mcr]/;

export function docHash(d: PlaceDoc): string {
  return createHash('sha256').update(JSON.stringify(d)).digest('base64url').slice(0, 22);
}

/** Every record of these batch files (XML or zip/folder of XML) that an address needs. */
export async function readSkChangeBatch(sources: string[]): Promise<RegisterChange[]> {
  const out: RegisterChange[] = [];
  for (const s of sources) for await (const r of readRegisterChanges(s, { types: SK_ADDRESS_TYPES })) out.push(r);
  return out;
}

/**
 * Applies a batch to the remembered register in memory and compares the documents it yields
 * with the ones the index holds (by hash): only the difference is written. The documents are
 * exactly those a full import of every batch so far would give (the same fold and aggregates),
 * including the derived streets and postal codes, so nothing is approximate except the areas
 * (see NEVER_DELETED). A batch applied twice yields no difference the second time. With
 * `liveCatalogue` (the store's live SK regions, counties and municipalities) the areas join it as
 * the full import's do: they keep the catalogue's names, links and positions (SkCatalogueJoin).
 */
export function planSkChanges(state: SkChangeState, batch: RegisterChange[], asOf: Date = new Date(), liveCatalogue?: PlaceDoc[], baseline: RegisterChange[] = []): SkChangePlan {
  // The baseline: the batches a full `addresses SK` import wrote, which the state (empty: the
  // first change batch after that import) does not hold. Its documents are what the store holds,
  // so the batch is compared with them: an entrance the batch deletes is deleted from the store.
  const base = baseline.length > 0 ? planSkChanges(state, baseline, asOf, liveCatalogue) : null;
  const fold = new SkAddressFold(asOf);
  for (const r of state.records()) fold.apply(r);
  for (const r of baseline) fold.apply(r);
  // What the remembered register and the baseline have wrong was reported when they were applied
  // (or imported): the batch reports its own records' problems, and the entrances it cannot place.
  const earlier = fold.errors.length;
  for (const r of batch) fold.apply(r);
  const recordErrors = fold.errors.slice(earlier);
  const before = new Map([...state.docHashes(), ...(base?.hashes ?? [])]);
  const named = new Set(batch.filter((r) => r.type === 'BUILDING_NUMBER').map((r) => r.objectId));
  /** An entrance of the batch, or one left out whose document the store holds: the batch takes it away (its building, street or municipality ended). */
  const ofBatch = (entrance: string, dropped: boolean) => named.has(entrance) || (dropped && before.has(placeId('SK', 'address', entrance)));
  const hasCatalogue = batch.some((r) => (SK_CATALOGUE_TYPES as readonly string[]).includes(r.type));
  const plan: SkChangePlan = {
    records: batch.length,
    newRecords: state.unknown(batch),
    upserts: [],
    deletes: [],
    hashes: [],
    skipped: 0,
    errors: [],
    baseline: { records: base?.newRecords ?? [], hashes: base?.hashes ?? [] },
  };
  const error = (m: string) => void (plan.errors.length < MAX_REPORTED_ERRORS && plan.errors.push(m));
  const seen = new Set<string>();
  const consider = (d: PlaceDoc) => {
    seen.add(d.place_id);
    const h = docHash(d);
    if (before.get(d.place_id) === h) return;
    plan.upserts.push(d);
    plan.hashes.push([d.place_id, h]);
  };
  const catalogue = new SkCatalogueJoin(fold.catalogue, liveCatalogue);
  const agg = new AddressAggregates('SK', catalogue.get);
  recordErrors.forEach(error);
  const addresses = fold.addresses(
    (m, entrance, dropped) => {
      if (ofBatch(entrance, dropped)) error(m);
    },
    (entrance) => {
      if (ofBatch(entrance, true)) plan.skipped++;
    },
  );
  for (const d of addresses) {
    agg.add(d);
    consider(d);
  }
  // The catalogue's errors (added when the fold built it, for SkCatalogueJoin): a batch with catalogue records reports them as the catalogue import does.
  if (hasCatalogue) fold.errors.slice(earlier + recordErrors.length).forEach(error);
  // As the full import: streets and catalogue objects no address derived (see skRegisterPlaceDocs).
  for (const d of [...fold.streets(), ...catalogue.underived(agg)]) if (!agg.derives(d.place_id)) consider(d);
  for (const d of agg.docs()) consider(d);
  for (const id of before.keys()) if (!seen.has(id) && !NEVER_DELETED.test(id)) plan.deletes.push(id);
  plan.deletes.sort();
  return plan;
}
