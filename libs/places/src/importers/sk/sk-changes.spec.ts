import { join, resolve } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { PlaceDoc } from '../../domain/place.doc';
import { skRegisterPlaceDocs } from '../address-import';
import { planSkChanges, readSkChangeBatch } from './sk-changes';
import { SkChangeState } from './sk-changes.state';
import { RegisterChange } from './sk-register-xml.reader';

const SK = resolve(__dirname, '../../fixtures/sk');
const CATALOGUE = join(SK, 'DavkaInit-catalogue.xml');
const INIT = join(SK, 'DavkaInit-addresses.xml');
const CHANGE = join(SK, 'ZmenovaDavka-addresses.xml');
const BUILDING = resolve(__dirname, 'sk-changes.fixture.xml');

async function fullImport(sources: string[]): Promise<Map<string, PlaceDoc>> {
  const out = new Map<string, PlaceDoc>();
  for await (const b of skRegisterPlaceDocs({ sources })) for (const d of b) out.set(d.place_id, d);
  return out;
}

describe('planSkChanges: incremental Register adries batches', () => {
  const dir = tempDir();
  const state = new SkChangeState(join(dir.path, 'state.sqlite')).open();
  /** What an index holding only these batches' documents would contain. */
  const index = new Map<string, PlaceDoc>();
  afterAll(() => {
    state.close();
    dir.remove();
  });

  async function apply(sources: string[]) {
    const plan = planSkChanges(state, await readSkChangeBatch(sources));
    for (const d of plan.upserts) index.set(d.place_id, d);
    for (const id of plan.deletes) index.delete(id);
    state.commit(plan.newRecords, plan.hashes, plan.deletes, { name: sources.join(','), records: plan.records, newRecords: plan.newRecords.length, upserts: plan.upserts.length, deletes: plan.deletes.length });
    return plan;
  }

  it('writes every document of the first batch set, as a full import would', async () => {
    const plan = await apply([CATALOGUE, INIT]);
    expect(plan.deletes).toEqual([]);
    expect(index).toEqual(await fullImport([CATALOGUE, INIT]));
    expect(plan.skipped).toBeGreaterThan(0);
  });

  it('writes only what a change batch changes, and ends up equal to a full import of all batches', async () => {
    const plan = await apply([CHANGE]);
    expect(index).toEqual(await fullImport([CATALOGUE, INIT, CHANGE]));
    expect(plan.deletes).toContain('sk_a10005');
    expect(plan.upserts.map((d) => d.place_id)).toEqual(expect.arrayContaining(['sk_a10002', 'sk_a10010']));
    // Addresses the batch does not touch are not rewritten.
    expect(plan.upserts.map((d) => d.place_id)).not.toContain('sk_a10004');
    expect(plan.upserts.length).toBeLessThan(index.size);
  });

  it('changes nothing when the same batch comes again', async () => {
    const before = new Map(index);
    const plan = await apply([CHANGE]);
    expect([plan.upserts.length, plan.deletes.length, plan.newRecords.length]).toEqual([0, 0, 0]);
    expect(index).toEqual(before);
  });

  it('re-resolves entrances of a changed building from the remembered register, and drops an emptied postal code', async () => {
    const plan = await apply([BUILDING]);
    expect(index).toEqual(await fullImport([CATALOGUE, INIT, CHANGE, BUILDING]));
    expect(index.get('sk_a10001')!.name).toBe('Hlavná 1212/3, 010 01 Žilina');
    expect(index.get('sk_a10010')!.street_number).toBe('1212');
    expect(index.get('sk_a10003')!.postal_code).toBe('81102');
    expect(plan.deletes).toContain('sk_p81101');
    expect(index.has('sk_p81102')).toBe(true);
    expect(state.batches()).toHaveLength(4);
  });
});

describe('planSkChanges: what a batch reports', () => {
  const dir = tempDir();
  const state = new SkChangeState(join(dir.path, 'state.sqlite')).open();
  afterAll(() => {
    state.close();
    dir.remove();
  });
  const rec = (over: Partial<RegisterChange> & Pick<RegisterChange, 'type' | 'objectId' | 'versionId'>): RegisterChange => ({
    operation: 'INSERT', parents: {}, fields: {}, source: 'zmenovadavka-test.xml', ...over,
  });

  it('names the batch\'s own problems and the entrances it takes away, not those of the register it is folded with', async () => {
    // The register of a full `addresses SK` import (its entrances 10006 and 10008 cannot be placed, 10007 lies outside Slovakia).
    const baseline = await readSkChangeBatch([CATALOGUE, INIT]);
    expect(planSkChanges(state, baseline).skipped).toBe(2);
    const batch = [
      rec({ type: 'BUILDING_NUMBER', objectId: '20001', versionId: 9001, fields: { BuildingNumber: '5' }, parents: { propertyRegistrationNumberIdentifier: '77777' } }),
      // Ends the building of entrance 10004, which the batch does not name.
      rec({ type: 'PROPERTY_REGISTRATION_NUMBER', objectId: '9003', versionId: 9002, operation: 'DELETE' }),
    ];
    const plan = planSkChanges(state, batch, undefined, undefined, baseline);
    expect(plan.errors).toEqual([
      'DavkaInit-addresses.xml: entrance objectId 10004: its building (objectId 9003) is not a current building',
      'zmenovadavka-test.xml: entrance objectId 20001: its building (objectId 77777) is not a current building',
    ]);
    expect(plan.skipped).toBe(2);
    expect(plan.deletes).toContain('sk_a10004');
  });
});
