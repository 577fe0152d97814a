import { StampedCache } from './stamped-cache';

describe('StampedCache', () => {
  function fixture(o?: { maxEntries?: number }) {
    let stamp: string | Error = 's1';
    let builds = 0;
    const cache = new StampedCache<string>({ dataStamp: async () => (stamp instanceof Error ? Promise.reject(stamp) : stamp) }, o);
    const build = (v: string, during?: () => void) => async () => {
      builds++;
      during?.();
      return v;
    };
    return { cache, build, setStamp: (s: string | Error) => (stamp = s), builds: () => builds };
  }

  it('answers a key again while the stamp stays, and builds it again when the stamp moves', async () => {
    const f = fixture();
    expect(await f.cache.get('a', f.build('one'))).toBe('one');
    expect(await f.cache.get('a', f.build('two'))).toBe('one');
    expect(f.builds()).toBe(1);
    f.setStamp('s2');
    expect(await f.cache.get('a', f.build('three'))).toBe('three');
    expect(f.builds()).toBe(2);
  });

  it('does not keep what was built while the stamp moved, nor anything while the stamp cannot be read', async () => {
    const f = fixture();
    expect(await f.cache.get('a', f.build('old', () => f.setStamp('s2')))).toBe('old');
    expect(await f.cache.get('a', f.build('new'))).toBe('new');
    f.setStamp(new Error('node gone'));
    expect(await f.cache.get('b', f.build('b1'))).toBe('b1');
    expect(await f.cache.get('b', f.build('b2'))).toBe('b2');
    f.setStamp('s2');
    // Kept under s2 before the stamp failed: still the answer.
    expect(await f.cache.get('a', f.build('newer'))).toBe('new');
    expect(f.builds()).toBe(4);
  });

  it('starts again past maxEntries, and keeps what keep() makes of an answer', async () => {
    const f = fixture({ maxEntries: 2 });
    await f.cache.get('a', f.build('a'));
    await f.cache.get('b', f.build('b'));
    await f.cache.get('c', f.build('c'));
    expect(f.builds()).toBe(3);
    await f.cache.get('c', f.build('c'));
    expect(f.builds()).toBe(3);
    await f.cache.get('a', f.build('a'));
    expect(f.builds()).toBe(4);
    const frozen = new StampedCache<{ n: number }[]>({ dataStamp: async () => 's' }, { keep: (v) => Object.freeze(v) as { n: number }[] });
    const kept = await frozen.get('k', async () => [{ n: 1 }]);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(await frozen.get('k', async () => [])).toBe(kept);
  });
});
