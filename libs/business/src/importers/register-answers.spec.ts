import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { projectRoot } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { SqliteBusinessStore } from '../store/sqlite-business.store';
import { aresSegment, aresSubjects, aresToDoc } from './ares-json.reader';
import { importBusiness } from './business-import';
import { lacksDetail, mergeRpoEntities, rpoEntities, rpoToDoc } from './rpo-json.reader';

const FIX = join(projectRoot(), 'libs/business/src/fixtures');
const json = (path: string): unknown => JSON.parse(readFileSync(join(FIX, path), 'utf8'));

describe('ARES: the sector comes from the main activity', () => {
  // A real ARES answer (source in the fixture README): ten activities in code order, none marked.
  it('does not take the lowest code of a real answer for the main activity', () => {
    const [seznam] = aresSubjects(json('cz/ares-ekonomicke-subjekty-real.json'));
    expect(seznam!.czNace![0]).toBe('461');
    const doc = aresToDoc(seznam!)!;
    // The first code is wholesale (46); the activities span five sections, so no sector is certain.
    expect(doc).toMatchObject({ cin: '26168685', name: 'Seznam.cz, a.s.', street: 'Radlická', street_number: '3294', building_number: '10', postal_code: '15000', municipality: 'Praha', district: 'Smíchov', vatin: 'CZ26168685', legal_form_code: '121', segment: '' });
  });

  it('takes the main activity of the primary RES record, and the employee category', () => {
    const subjects = aresSubjects(json('cz/ares-ekonomicke-subjekty-res.json'));
    expect(subjects).toHaveLength(1);
    expect(aresToDoc(subjects[0]!)).toMatchObject({ cin: '00177041', segment: 'Zpracovatelský průmysl', organization_size: '10000 a více zaměstnanců' });
  });

  it.each([
    [{ czNacePrevazujici: '35110', czNace: ['16100', '35110'] }, 'Výroba a rozvod elektřiny, plynu, tepla a klimatizovaného vzduchu'],
    [{ czNacePrevazujici: '00', czNacePrevazujici2008: '35110', czNace: ['16100', '35110'] }, 'Výroba a rozvod elektřiny, plynu, tepla a klimatizovaného vzduchu'],
    [{ czNace: ['16100', '35110'] }, ''],
    [{ czNace: ['461', '46900', '4711'] }, 'Velkoobchod a maloobchod; opravy a údržba motorových vozidel'],
    [{ czNace2008: ['62010'] }, 'Informační a komunikační činnosti'],
  ])('%j -> %s', (s, segment) => {
    expect(aresSegment(s)).toBe(segment);
  });

  it('a RES answer applied after the main one keeps its tax number and VAT status, and fills the sector', async () => {
    const dir = tempDir('business-ares-');
    const store = new SqliteBusinessStore(join(dir.path, 'b.sqlite'));
    await store.init();
    try {
      const paths = ['cz/ares-ekonomicke-subjekty.json', 'cz/ares-ekonomicke-subjekty-res.json'].map((p) => join(FIX, p));
      const report = await importBusiness(store, { rpoJson: [join(FIX, 'sk/rpo-search.json')], aresJson: paths, stageDir: dir.path }, 'test');
      expect(report.refreshed).toBe(3);
      expect(await store.get('cz_00177041')).toMatchObject({ tin: 'CZ00177041', vatin: 'CZ00177041', segment: 'Zpracovatelský průmysl', organization_size: '10000 a více zaměstnanců', street: 'tř. Václava Klementa' });
    } finally {
      await store.close();
      dir.remove();
    }
  });
});

describe('RPO: search answers and detail answers', () => {
  // The first result is a real search answer (source in the fixture README).
  it('a search answer has no legal form and no main activity', () => {
    const docs = rpoEntities(json('sk/rpo-search.json'));
    expect(docs.every(lacksDetail)).toBe(true);
    // The current name and seat are the ones without validTo; regNumber 0 means none.
    expect(rpoToDoc(docs[0]!)).toMatchObject({
      cin: '31322832', name: 'SLOVNAFT, a.s.', established_on: '1992-05-01', street: 'Vlčie hrdlo', street_number: null, building_number: '1',
      postal_code: '82412', municipality: 'Bratislava', legal_form: '', legal_form_code: '', segment: '',
    });
  });

  it('the detail answer fills them, in whichever order the two come', () => {
    const search = rpoEntities(json('sk/rpo-search.json'));
    const detail = rpoEntities(json('sk/rpo-entity-1003617.json'));
    for (const merged of [mergeRpoEntities([...search, ...detail]), mergeRpoEntities([...detail, ...search])]) {
      expect(merged).toHaveLength(2);
      const slovnaft = merged.find((e) => e.id === 1003617)!;
      expect(lacksDetail(slovnaft)).toBe(false);
      expect(rpoToDoc(slovnaft)).toMatchObject({ cin: '31322832', name: 'SLOVNAFT, a.s.', legal_form: 'Akciová spoločnosť', legal_form_code: '121', segment: 'Priemyselná výroba', street: 'Vlčie hrdlo' });
    }
  });

  it('the import counts the entities that came without their detail', async () => {
    const dir = tempDir('business-rpo-');
    const store = new SqliteBusinessStore(join(dir.path, 'b.sqlite'));
    await store.init();
    try {
      const report = await importBusiness(store, { rpoJson: [join(FIX, 'sk/rpo-search.json'), join(FIX, 'sk/rpo-entity-1003617.json')], stageDir: dir.path }, 'test');
      expect(report).toMatchObject({ docs: 2, skipped: 0, rpoWithoutDetail: 1 });
      expect(await store.get('sk_31322832')).toMatchObject({ legal_form_code: '121', segment: 'Priemyselná výroba' });
      expect(await store.get('sk_50112233')).toMatchObject({ legal_form_code: '', segment: '' });
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
