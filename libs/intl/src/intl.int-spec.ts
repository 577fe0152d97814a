import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DomainError } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { createTestSchema, describeWith, tempDir } from '@lookup/shared/testing';
import { fbtHashKey, JsfbtTree } from './fbt/fbt-hash';
import { PhrasesService } from './phrases/phrases.service';
import { ProjectsService } from './projects/projects.service';
import { runProjectsCommand } from './projects/projects.command';
import { intlDataSourceOptions } from './store/intl.store';
import { TranslationsService } from './translations/translations.service';
import { TranslationUploadService } from './translations/translation-upload.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { processJSON } = require('babel-plugin-fbt/dist/bin/translateUtils') as {
  processJSON(json: unknown, options: { jenkins: boolean; hashModule: false; strict: boolean }): Record<string, Record<string, unknown>>;
};

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const COLLECTION_020 = fixture('shop.fbt-0.20.collection.json');
const COLLECTION_10 = fixture('shop.fbt-1.0.collection.json');
const THRESHOLD = 3;

async function failure(p: Promise<unknown>): Promise<Pick<DomainError, 'type' | 'param' | 'status'>> {
  try {
    await p;
  } catch (e) {
    const d = e as DomainError;
    if (!(d instanceof DomainError)) throw e;
    return { type: d.type, param: d.param, status: d.status };
  }
  throw new Error('expected a DomainError');
}

/** The same store behaviour on PostgreSQL and on SQLite. */
function intlStoreContract(setup: () => Promise<{ ds: DataSource; stop(): Promise<void> }>): void {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let projects: ProjectsService;
  let phrases: PhrasesService;
  let translations: TranslationsService;
  const project = 'shop';
  const admin = 'admin@shop.example';
  const author = 'anna@shop.example';
  const voters = Array.from({ length: 6 }, (_, i) => `voter${i}@shop.example`);

  beforeAll(async () => {
    ({ ds, stop } = await setup());
    projects = new ProjectsService(ds);
    phrases = new PhrasesService(ds, projects);
    translations = new TranslationsService(ds, projects, THRESHOLD);
    const lines: string[] = [];
    await runProjectsCommand(['create', project], projects, (l) => lines.push(l));
    await runProjectsCommand(['add-member', project, admin, 'administrator'], projects, (l) => lines.push(l));
    await runProjectsCommand(['add-member', project, 'Anna@Shop.example', 'translator'], projects, (l) => lines.push(l));
    for (const v of voters) await projects.addMember(project, v, 'translator');
    await projects.create('other');
    await runProjectsCommand(['list'], projects, (l) => lines.push(l));
    expect(lines).toContain('  administrator admin@shop.example');
    expect(lines).toContain('  translator    anna@shop.example');
  });
  afterAll(async () => stop?.());

  const hashOf = async (text: string) => (await phrases.query({ project, query: text })).find((p) => p.text === text)!.hash;

  it('uploads a real fbt collection once: texts, tables, variations, parents; re-uploads insert nothing', async () => {
    expect(await phrases.upload({ project, native_strings: COLLECTION_020 })).toEqual({ inserted: 10 });
    expect(await phrases.upload({ project, native_strings: COLLECTION_020 })).toEqual({ inserted: 0 });
    // babel-plugin-fbt 1.0 collects the same hashes from the same source.
    expect(await phrases.upload({ project, native_strings: COLLECTION_10 })).toEqual({ inserted: 0 });
    const all = await phrases.query({ project });
    expect(all).toHaveLength(10);
    const plural = all.find((p) => p.text === 'You have 1 item in the cart')!;
    expect(plural).toMatchObject({ object: 'phrase', description: 'cart summary', project: 'shop', author: '', parent_id: null, source: { type: 'table' } });
    expect(JSON.parse(plural.source.jsfbt).t['_1']).toBe('You have 1 item in the cart');
    expect(plural.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const banner = all.find((p) => p.text === 'Welcome {=to the jungle}')!;
    const inner = all.find((p) => p.text === 'to the {=jungle}')!;
    expect(inner.parent_id).toBe(banner.id);
    expect(all.find((p) => p.text === 'jungle')!.parent_id).toBe(inner.id);
    // Another project is another namespace.
    expect(await phrases.upload({ project: 'other', native_strings: COLLECTION_10 })).toEqual({ inserted: 10 });
  });

  it('counts each phrase once when the same collection is uploaded concurrently', async () => {
    await projects.create('race');
    const results = await Promise.all(Array.from({ length: 4 }, () => phrases.upload({ project: 'race', native_strings: COLLECTION_10 })));
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(10);
    const race = await phrases.query({ project: 'race' });
    expect(race).toHaveLength(10);
    expect(race.find((p) => p.text === 'jungle')!.parent_id).toBe(race.find((p) => p.text === 'to the {=jungle}')!.id);
  });

  it('stores nothing from an upload with a bad element', async () => {
    const doc = JSON.parse(COLLECTION_020) as { phrases: Array<Record<string, unknown>> };
    doc.phrases.unshift({ hashToText: { newhash: 'Brand new' }, desc: 'new', project: 'shop', type: 'text', jsfbt: 'Brand new' });
    expect(await failure(phrases.upload({ project, native_strings: JSON.stringify(doc) }))).toMatchObject({ type: 'invalid_parameter', param: 'native_strings[0].hash' });
    doc.phrases[0]['hashToText'] = { newhash: 'Brand new' };
    doc.phrases[3]['type'] = 'list';
    expect(await failure(phrases.upload({ project, native_strings: JSON.stringify(doc), hash_check: 'report' }))).toMatchObject({ param: 'native_strings[3].type' });
    expect(await phrases.query({ project, query: 'brand new' })).toEqual([]);
  });

  it('searches text and description without case or diacritics', async () => {
    expect((await phrases.query({ project, query: 'OBCHODE vitejte' })).map((p) => p.text)).toEqual(['Vítejte v obchodě']);
    expect((await phrases.query({ project, query: 'cart summary' })).map((p) => p.text)).toEqual(['You have {number} items in the cart', 'You have 1 item in the cart']);
    expect(await phrases.query({ project, query: '100%_' })).toEqual([]);
  });

  it('refuses a submission by a non-member, for an unknown phrase, or with uneven variations', async () => {
    const hash = await hashOf('Your cart');
    const base = { project, translation: 'Váš košík', hash, locale: 'cs_CZ' };
    expect(await failure(translations.submit({ ...base, contributor: 'stranger@else.example' }))).toEqual({ type: 'invalid_parameter', param: 'contributor', status: 400 });
    expect(await failure(translations.submit({ ...base, contributor: author, hash: 'nope' }))).toEqual({ type: 'invalid_request', param: 'hash', status: 404 });
    expect(await failure(translations.submit({ ...base, contributor: author, tokens: ['number'], types: [2] }))).toMatchObject({ param: 'variations' });
    expect(await failure(translations.submit({ ...base, contributor: author, phash: 'other' }))).toMatchObject({ param: 'phash' });
    // A token the phrase does not vary by: fbt would drop the translation and keep the source text.
    expect(await failure(translations.submit({ ...base, contributor: author, tokens: ['foo'], types: [2], variations: [24] }))).toEqual({ type: 'invalid_parameter', param: 'tokens', status: 400 });
    const plural = { ...base, translation: 'V košíku máte {number} položek', hash: await hashOf('You have {number} items in the cart'), contributor: author };
    expect(await failure(translations.submit({ ...plural, tokens: ['count'], types: [2], variations: [24] }))).toEqual({ type: 'invalid_parameter', param: 'tokens', status: 400 });
    // A member of another project is not a member of this one.
    await projects.addMember('other', 'outsider@else.example', 'administrator');
    expect(await failure(translations.submit({ ...base, contributor: 'outsider@else.example' }))).toMatchObject({ param: 'contributor' });
  });

  it('approves at the vote threshold under concurrent votes, counting one vote per member', async () => {
    const t = await translations.submit({ project, translation: 'Váš košík', hash: await hashOf('Your cart'), phash: await hashOf('Your cart'), locale: 'cs_CZ', contributor: 'ANNA@shop.example' });
    expect(t).toMatchObject({ approval_status: 'pending', author, votes: 0, voted: false, tokens: [], variations: [], locale: 'cs_CZ' });
    // The same submission again is the same translation.
    expect((await translations.submit({ project, translation: 'Váš košík', hash: t.phrase_hash, locale: 'cs_CZ', contributor: admin })).id).toBe(t.id);
    const attempts = [...voters, ...voters, voters[0], voters[0], voters[0]].map((contributor) =>
      translations.vote({ project, trid: t.id, contributor }).then(
        (r) => ({ ok: true as const, r }),
        (e: DomainError) => ({ ok: false as const, e }),
      ),
    );
    const results = await Promise.all(attempts);
    const ok = results.filter((x) => x.ok);
    const refused = results.filter((x) => !x.ok);
    expect(ok).toHaveLength(voters.length);
    expect(refused.map((x) => (x.ok ? null : [x.e.type, x.e.param]))).toEqual(Array(results.length - voters.length).fill(['invalid_parameter', 'contributor']));
    const [after] = await translations.query({ project, hash: t.phrase_hash, contributor: voters[1] });
    expect(after).toMatchObject({ id: t.id, approval_status: 'approved', votes: voters.length, voted: true });
    expect(await failure(translations.vote({ project, trid: t.id, contributor: author }))).toMatchObject({ param: 'contributor' });
    expect(await failure(translations.vote({ project, trid: 999999, contributor: admin }))).toMatchObject({ status: 404, param: 'trid' });
  });

  it('bulk-approves a locale (administrators only), rejects, and exports what fbt translate reads', async () => {
    const pluralHash = await hashOf('You have {number} items in the cart');
    const submit = (translation: string, hash: string, locale: string, extra: Record<string, unknown> = {}) =>
      translations.submit({ project, translation, hash, locale, contributor: author, ...extra });
    await submit('V košíku máte {number} položek', pluralHash, 'cs_CZ', { tokens: ['number'], types: [2], variations: [24] });
    await submit('V košíku máte {number} položky', pluralHash, 'cs_CZ', { tokens: ['number'], types: [2], variations: [20] });
    await submit('V košíku máte 1 položku', await hashOf('You have 1 item in the cart'), 'cs_CZ');
    const bad = await submit('Zaplaťte', await hashOf('Pay now'), 'cs_CZ');
    await submit('Ihr Warenkorb', await hashOf('Your cart'), 'de_DE');
    expect(await failure(translations.decideLocale({ project, locale: 'cs_CZ', contributor: author }, 'approved'))).toMatchObject({ param: 'contributor' });
    expect((await translations.reject({ project, trid: bad.id, contributor: admin })).approval_status).toBe('rejected');
    expect(await translations.decideLocale({ project, locale: 'cs_CZ', contributor: admin }, 'approved')).toEqual({ count: 3 });
    expect(await translations.decideLocale({ project, locale: 'cs_CZ', contributor: admin }, 'approved')).toEqual({ count: 0 });
    expect(await failure(translations.vote({ project, trid: bad.id, contributor: admin }))).toMatchObject({ param: 'trid' });
    // Without a query only approved ones; a query finds pending ones too.
    expect((await translations.query({ project, locale: 'de_DE' })).length).toBe(0);
    expect((await translations.query({ project, query: 'warenkorb' })).map((t) => t.approval_status)).toEqual(['pending']);
    expect((await translations.query({ project, query: 'KOSIKU' })).length).toBe(3);

    const group = await translations.export({ project, locale: 'cs_CZ' });
    expect(group['fb-locale']).toBe('cs_CZ');
    expect(Object.keys(group.translations)).toHaveLength(3);
    const collection = JSON.parse(COLLECTION_10) as { phrases: Array<{ jsfbt: { t: JsfbtTree } }> };
    const out = processJSON({ phrases: collection.phrases, translationGroups: [group] }, { jenkins: true, hashModule: false, strict: false })['cs_CZ'];
    const key = (i: number) => fbtHashKey(collection.phrases[i].jsfbt.t);
    expect(out[key(0)]).toBe('Váš košík');
    // The few form (20) too: the export writes fbt's number mask (28) as the token's type.
    expect(out[key(1)]).toEqual({ '*': 'V košíku máte {number} položek', '20': 'V košíku máte {number} položky', _1: 'V košíku máte 1 položku' });
    expect(out[key(3)]).toEqual({ now: 'Pay now', later: 'Pay later' });
    expect(await translations.export({ project, locale: 'fr_FR' })).toEqual({ 'fb-locale': 'fr_FR', translations: {} });
  });

  it('imports an fbt translation file (the export of another locale) as pending translations, once', async () => {
    const imports = new TranslationUploadService(ds, projects);
    const file = await translations.export({ project, locale: 'cs_CZ' });
    (file.translations as Record<string, unknown>)['notAPhraseHash=='] = { tokens: [], types: [], translations: [{ translation: 'x', variations: {} }] };
    const json = JSON.stringify(file);
    expect(await imports.upload({ project, translations: json, locale: 'sk_SK', contributor: author })).toEqual({ inserted: 4, unknown_hashes: ['notAPhraseHash=='] });
    expect(await imports.upload({ project, translations: json, locale: 'sk_SK', contributor: author })).toEqual({ inserted: 0, unknown_hashes: ['notAPhraseHash=='] });
    const sk = await translations.query({ project, query: 'kosiku', locale: 'sk_SK' });
    expect(sk.map((t) => `${t.approval_status} ${t.author} ${t.translation} [${t.variations}]`).sort()).toEqual([
      `pending ${author} V košíku máte 1 položku []`,
      `pending ${author} V košíku máte {number} položek [24]`,
      `pending ${author} V košíku máte {number} položky [20]`,
    ]);
    expect(await failure(imports.upload({ project, translations: json, contributor: 'who@else.example' }))).toMatchObject({ param: 'contributor' });

    // A translation file as fbt's tooling writes it: fbt's masks in types (28 number, 3 gender).
    const pluralHash = await hashOf('You have {number} items in the cart');
    const likedHash = await hashOf('{buyer} liked your photo');
    const real = {
      'fb-locale': 'pl_PL',
      translations: {
        [pluralHash]: { tokens: ['number'], types: [28], translations: [{ translation: 'Masz {number} produkty w koszyku', variations: { '0': 20 } }] },
        [likedHash]: { tokens: ['buyer'], types: [3], translations: [{ translation: '{buyer} polubiła twoje zdjęcie', variations: { '0': 2 } }] },
      },
    };
    expect(await imports.upload({ project, translations: JSON.stringify(real), contributor: author })).toEqual({ inserted: 2, unknown_hashes: [] });
    const pl = await translations.query({ project, query: 'w', locale: 'pl_PL' }); // both texts have a "w"
    expect(pl.map((t) => `${t.approval_status} ${t.tokens} ${t.types} ${t.variations}`).sort()).toEqual(['pending buyer 1 2', 'pending number 2 20']);

    // A token its phrase does not vary by refuses the file, as submit refuses it, and nothing of it is stored.
    const foreign = { 'fb-locale': 'hu_HU', translations: { ...real.translations, [pluralHash]: { tokens: ['count'], types: [28], translations: [{ translation: 'Sie haben {number} Artikel', variations: { '0': 24 } }] } } };
    expect(await failure(imports.upload({ project, translations: JSON.stringify(foreign), contributor: author }))).toEqual({ type: 'invalid_parameter', param: 'translations', status: 400 });
    expect(await translations.query({ project, query: 'w', locale: 'hu_HU' })).toEqual([]);
  });

  it('names a project that does not exist', async () => {
    expect(await failure(phrases.query({ project: 'ghost' }))).toMatchObject({ type: 'invalid_request', param: 'api_key' });
  });
}

describeWith(['postgres'], 'intl store on PostgreSQL', () => {
  intlStoreContract(async () => {
    const pg = await createTestSchema('intl');
    const config = loadConfig({}, { PROFILE: 'distributed', DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema });
    const ds = await new DataSource(intlDataSourceOptions(config)).initialize();
    return { ds, stop: async () => { await ds.destroy(); await pg.drop(); } };
  });
});

describe('intl store on SQLite', () => {
  intlStoreContract(async () => {
    const dir = tempDir();
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path });
    const ds = await new DataSource(intlDataSourceOptions(config)).initialize();
    return { ds, stop: async () => { await ds.destroy(); dir.remove(); } };
  });
});
