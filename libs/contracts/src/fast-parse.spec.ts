import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import * as contracts from './index';
import { fastParse } from './fast-parse';
import { normaliseParams } from './request-shape';
import { parseRequest } from './validation';

/**
 * fastParse against the libraries it stands in for: on every DTO class of the contracts, with
 * generated parameter sets (valid, invalid, unknown and oddly shaped), whatever fastParse makes
 * must be what plainToInstance + validateSync make with parseRequest's options, and parseRequest
 * must answer as the libraries alone would (the same DTO or the same error).
 */

type Cls = new () => object;

const SEARCHES = ['PlaceQueryRequest', 'StreetQueryRequest', 'MunicipalityQueryRequest', 'PostalQueryRequest'];

/** The DTOs with a @Type (class-transformer's own conversion) or a check on each item of a list: always the libraries' way. */
const NOT_TAKEN = ['TranslationActionRequest', 'TranslationActionMessage', 'TranslationSubmitRequest', 'TranslationSubmitMessage'];

const storage = getMetadataStorage() as unknown as { getTargetValidationMetadatas(t: unknown, s: string, a: boolean, g: boolean): Array<{ propertyName: string }> };

const DTOS: Array<[string, Cls]> = Object.entries(contracts)
  .filter(([, v]) => typeof v === 'function' && /^class /.test(Function.prototype.toString.call(v)))
  .filter(([, v]) => storage.getTargetValidationMetadatas(v, '', false, false).length > 0) as Array<[string, Cls]>;

function librariesParse(cls: Cls, plain: Record<string, unknown>): { ok: object } | { error: string } {
  let params: Record<string, unknown>;
  try {
    params = normaliseParams(plain);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const instance = plainToInstance(cls, params, { exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  return errors.length === 0 ? { ok: instance } : { error: errors.map((e) => e.property).join(',') };
}

// Values official clients and hand-written ones send, and the edges of each check.
const POOL: unknown[] = [
  'Bludov 12', 'Lihovarská 79/22a Opava', '  Opava ', 'x'.repeat(200), 'x'.repeat(201), '😀'.repeat(150), '😀'.repeat(201),
  'CZ', 'cz', 'CZ,SK', ' sk , cz ', 'XX', 'CZ,XX', ',', 'CZ,SK,PL,AT,CH,LI,CZ',
  '7', '1', '20', '0', '21', '-1', '1.5', ' 7 ', '7a', 7, 0, 25, 1.5,
  'strict', ' preference ', 'loose',
  'true', 'false', 'TRUE', '1', '0', true, false, '127.0.0.1', '::1', '300.1.1.1',
  '49.9388,17.9026', ' 49.9 , 17.9 ', '91,0', '49.9', 
  '746 01', '74601', '746', '746-01', 'abc',
  'cz_m_500011', 'cz_r_19', 'cz_m_500011,cz_r_19', 'bad id',
  'cs', 'en', 'de_DE', 'cs_CZ', 'someone@example.com', 'not an e-mail', 'CZ12345678', '12345678', '27074358',
  'Hello {name}', 'hash123', 'Translated', '5', '42',
  null, ['CZ', 'SK'], ['cz_m_500011'], { 0: 'CZ' }, [], { a: 1 }, [1],
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function paramSets(cls: Cls, n: number, seed: number): Array<Record<string, unknown>> {
  const names = [...new Set(storage.getTargetValidationMetadatas(cls, '', false, false).map((m) => m.propertyName))];
  const random = rng(seed);
  const pick = <T,>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  // Half the sets draw each parameter from the values its own checks take, so that many sets are valid.
  const good = new Map(names.map((name) => [name, POOL.filter((v) => { const r = librariesParse(cls, { [name]: v }); return 'ok' in r || !r.error.split(',').includes(name); })]));
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const p: Record<string, unknown> = {};
    const fromGood = i % 2 === 0;
    for (const name of names) if ((fromGood && name === 'query') || random() < (fromGood ? 0.3 : 0.45)) p[name] = pick(fromGood && (good.get(name) as unknown[]).length > 0 ? (good.get(name) as unknown[]) : POOL);
    if (random() < 0.08) p[pick(['foo', 'Query', 'toString', 'hasOwnProperty'])] = pick(POOL);
    out.push(p);
  }
  return out;
}

const counts = new Map<string, number>();

describe('fastParse', () => {
  afterAll(() => console.log(`sets fastParse made, by DTO: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`));

  it('finds the contracts DTOs', () => {
    expect(DTOS.map(([name]) => name)).toEqual(expect.arrayContaining(['PlaceQueryRequest', 'StreetQueryRequest', 'MunicipalityQueryRequest', 'PostalQueryRequest', 'CatalogueRequest', 'TranslationActionRequest']));
  });

  it.each(DTOS)('%s: what it makes is what the libraries make, and parseRequest answers as they do', (_name, cls) => {
    let fast = 0;
    let valid = 0;
    for (const plain of paramSets(cls, 1500, cls.name.length * 7919)) {
      const libs = librariesParse(cls, plain);
      // class-transformer drops a parameter named like a method of every object (`toString`) without a word; fastParse leaves those to it.
      const plainValue = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);
      const simple = Object.entries(plain).every(([k, v]) => v === '' || ((plainValue(v) || (Array.isArray(v) && v.every(plainValue))) && !(k in Object.prototype)));
      if ('ok' in libs && simple) valid++;
      let made: object | undefined;
      try {
        made = fastParse(cls, normaliseParams(plain));
      } catch {
        made = undefined;
      }
      if (made !== undefined) {
        counts.set(cls.name, (counts.get(cls.name) ?? 0) + 1);
        fast++;
        expect(libs).toHaveProperty('ok');
        const expected = (libs as { ok: object }).ok;
        expect(made.constructor).toBe(expected.constructor);
        expect(Object.keys(made)).toEqual(Object.keys(expected));
        expect(made).toStrictEqual(expected);
      }
      let parsed: { ok: object } | { error: string };
      try {
        parsed = { ok: parseRequest(cls, plain) };
      } catch {
        parsed = { error: '' };
      }
      expect('ok' in parsed).toBe('ok' in libs);
      if ('ok' in parsed) expect(parsed.ok).toStrictEqual((libs as { ok: object }).ok);
    }
    // Every valid set of plain values goes the fast way, except on a class it does not take.
    expect(fast).toBe(NOT_TAKEN.includes(cls.name) ? 0 : valid);
    if (SEARCHES.includes(cls.name)) expect(fast).toBeGreaterThan(200);
  });

  it('takes the search DTOs and leaves a class with @Type to the libraries', () => {
    const { PlaceQueryRequest, TranslationActionRequest } = contracts as unknown as Record<string, Cls>;
    expect(fastParse(PlaceQueryRequest, { query: 'Bludov 12', country: 'cz', limit: '5' })).toEqual(Object.assign(new PlaceQueryRequest(), { query: 'Bludov 12', country: ['CZ'], limit: 5 }));
    expect(fastParse(TranslationActionRequest, { trid: '5', contributor: 'ann' })).toBeUndefined();
    // What the gateway sends the places service over NATS: the DTO it made, as JSON.
    const overNats = JSON.parse(JSON.stringify(parseRequest(PlaceQueryRequest, { query: 'Bludov 12', country: 'cz,sk', limit: '5' })));
    const made = fastParse(PlaceQueryRequest, overNats) as { country: string[] };
    expect(made).toEqual(Object.assign(new PlaceQueryRequest(), { query: 'Bludov 12', country: ['CZ', 'SK'], limit: 5 }));
    expect(made.country).not.toBe(overNats.country);
  });

  it('leaves what fails to the libraries, which name the parameter', () => {
    const { PlaceQueryRequest } = contracts as unknown as Record<string, Cls>;
    for (const plain of [{ query: 'x', limit: '21' }, { query: 'x', foo: 'y' }, { limit: '5' }, { query: 'x'.repeat(201) }, { query: 'x', country: { 0: 'CZ' } }, { query: 'x', country: [['CZ']] }]) {
      expect(fastParse(PlaceQueryRequest, plain)).toBeUndefined();
    }
    expect(() => parseRequest(PlaceQueryRequest, { query: 'x', limit: '21' })).toThrow(/limit/);
    expect(() => parseRequest(PlaceQueryRequest, { query: 'x', foo: 'y' })).toThrow(/foo/);
  });
});
