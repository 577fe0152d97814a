import { TtlCache } from './email-result.cache';

describe('TtlCache', () => {
  it('forgets entries after their time to live', () => {
    let now = 1000;
    const cache = new TtlCache<string>(500, 10, () => now);
    cache.set('a', 'x');
    now = 1499;
    expect(cache.get('a')).toBe('x');
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the oldest entry beyond its size; setting again refreshes an entry', () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('stores nothing with a zero time to live', () => {
    const cache = new TtlCache<number>(0, 10);
    cache.set('a', 1);
    expect(cache.enabled).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });
});
