import { emptyDoc, PlaceDoc } from '../domain/place.doc';
import { fromStored, packDoc, toStored, unpackDoc } from './opensearch-places.stored';

describe('OpenSearch stored source <-> PlaceDoc', () => {
  it('gives back every PlaceDoc field, in its order, without the index-only fields', () => {
    // A distinct value in every field, so a field the literal forgets or swaps shows.
    const doc = Object.fromEntries(Object.keys(emptyDoc('CZ', 'address', 'cz_a1', 'x')).map((k, i) => [k, `v${i}`])) as unknown as PlaceDoc;
    const stored = toStored({ ...doc, lat: 49.9, lng: 17.9, weight: 3 });
    expect(stored.location).toEqual({ lat: 49.9, lon: 17.9 });
    const back = fromStored(stored);
    expect(back).toEqual({ ...doc, lat: 49.9, lng: 17.9, weight: 3 });
    expect(Object.keys(back)).toEqual(Object.keys(doc));
  });

  it('reads a field an older index lacks as null, as SQLite does', () => {
    const { city_district: _c, postal_place: _p, ...old } = toStored(emptyDoc('CZ', 'municipality', 'cz_m1', 'Opava'));
    expect(fromStored(old as never)).toEqual(emptyDoc('CZ', 'municipality', 'cz_m1', 'Opava'));
  });

  it('packs every PlaceDoc field into the doc column and unpacks it in PlaceDoc’s order', () => {
    const doc = Object.fromEntries(Object.keys(emptyDoc('CZ', 'address', 'cz_a1', 'x')).map((k, i) => [k, `Žlu ťouč "${i}"\n`])) as unknown as PlaceDoc;
    const full = { ...doc, lat: 49.123456789, lng: -17.5, weight: 12 };
    const stored = toStored(full);
    expect(stored.doc).toBe(packDoc(full));
    expect(stored.doc).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const back = unpackDoc(stored.doc as string);
    expect(back).toEqual(full);
    expect(Object.keys(back as PlaceDoc)).toEqual(Object.keys(doc));
    // Nulls stay nulls, as _source gives them.
    expect(unpackDoc(packDoc(emptyDoc('SK', 'municipality', 'sk_m1', 'Nitra')))).toEqual(emptyDoc('SK', 'municipality', 'sk_m1', 'Nitra'));
  });

  it('reads what is not a packed document of its format as none', () => {
    const valid = JSON.parse(Buffer.from(packDoc(emptyDoc('CZ', 'region', 'cz_r1', 'Zlínský')), 'base64').toString()) as unknown[];
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
    expect(unpackDoc(b64([2, ...valid.slice(1)]))).toBeNull();
    expect(unpackDoc(b64(valid.slice(0, 22)))).toBeNull();
    expect(unpackDoc(b64({ place_id: 'cz_r1' }))).toBeNull();
    expect(unpackDoc(b64('[1, "cz_r1"'))).toBeNull();
    expect(unpackDoc('')).toBeNull();
  });
});
