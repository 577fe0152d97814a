import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { describeWithData, sharedData, tempDir } from '@lookup/shared/testing';
import { ruianPlaceDocs } from '../importers/address-import';
import { sourcesAt } from '../importers/io';
import { PlacesSearchService } from '../search/places-search.service';
import { SqlitePlacesStore } from '../store/sqlite-places.store';
import { PlacesValidateService } from './places-validate.service';
import { ValidateCaseGenerator } from './testing/validate-cases';
import { KindResult, runCases, teeAddresses } from './testing/validate-run';

const ZIP = sharedData('cz/20231231_OB_ADR_csv.zip');
const PSC_LIST = sharedData('cz/psc-list.csv');
/** Opava (with villages written without streets), Šumperk, Svitavy, Písek, Branka u Opavy, Rančířov. */
const MUNICIPALITIES = /_(505927|523704|578444|549240|553646|587869)_ADR\.csv$/;

/**
 * places.validate on the real Czech register: six municipalities' files taken from the real
 * zip at test time, imported into SQLite, and typed addresses made from their rows (exact, a
 * wrong postal code, a misspelt municipality, a missing orientation number, a number the street
 * does not have). Each kind must get the verdict the register implies.
 */
describeWithData([ZIP, PSC_LIST], 'places.validate on real RUIAN data (six municipalities)', () => {
  const dir = tempDir('validate-data-');
  const store = new SqlitePlacesStore(join(dir.path, 'cz.sqlite'));
  const gen = new ValidateCaseGenerator(0.06);
  let results: KindResult[] = [];

  beforeAll(async () => {
    const csv = join(dir.path, 'CSV');
    await import('node:fs/promises').then((fs) => fs.mkdir(csv));
    for await (const entry of sourcesAt(ZIP, MUNICIPALITIES)) await pipeline(await entry.open(), createWriteStream(join(csv, entry.name.split('/').pop()!)));
    await store.init();
    await store.bulkLoad(teeAddresses(ruianPlaceDocs({ zipOrDir: csv, catalogue: { pscList: PSC_LIST }, batchSize: 5000 }), gen));
    results = await runCases(new PlacesValidateService(new PlacesSearchService(store)), gen.finish());
    for (const r of results) {
      console.log(`validate real ${r.kind}: ${r.right}/${r.cases}${r.wrong.length ? `; wrong e.g. ${JSON.stringify(r.wrong.slice(0, 2))}` : ''}`);
    }
  }, 600_000);

  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  const share = (kind: string) => {
    const r = results.find((x) => x.kind === kind)!;
    expect(r.cases).toBeGreaterThanOrEqual(50);
    return r.right / r.cases;
  };

  it('finds exact addresses as exact, the same place', () => expect(share('exact')).toBeGreaterThanOrEqual(0.98));
  it('corrects a postal code that does not belong to the address', () => expect(share('wrong_postal')).toBeGreaterThanOrEqual(0.95));
  it('corrects a misspelt municipality', () => expect(share('misspelt_municipality')).toBeGreaterThanOrEqual(0.9));
  it('completes a missing orientation number (ambiguous where the building has several)', () => expect(share('missing_orientation')).toBeGreaterThanOrEqual(0.95));
  it('says not_found for a number the street does not have', () => expect(share('nonexistent_number')).toBeGreaterThanOrEqual(0.98));
});
