/**
 * How many times each numeric key occurs, so a second pass can keep only the last version of a
 * record that several sources (or one file) carry, without holding the records themselves.
 * Counts of keys below `denseLimit` live in a typed array (2 bytes a key: the 2.5 M Austrian
 * ADRCDs, all below ten million, take about 20 MB); other keys go to a map.
 */
export class Occurrences {
  private dense = new Uint16Array(1024);
  private readonly sparse = new Map<string, number>();

  constructor(private readonly denseLimit = 50_000_000) {}

  add(key: string): void {
    const n = this.index(key);
    if (n === null) {
      this.sparse.set(key, (this.sparse.get(key) ?? 0) + 1);
      return;
    }
    if (n >= this.dense.length) this.grow(n);
    if (this.dense[n]! < 0xffff) this.dense[n]!++;
    else this.sparse.set(key, (this.sparse.get(key) ?? 0xffff) + 1);
  }

  /** Takes one occurrence away; true when that was the last one (the version to keep). */
  takeLast(key: string): boolean {
    const n = this.index(key);
    if (n !== null && n < this.dense.length && this.dense[n]! > 0 && !this.sparse.has(key)) return --this.dense[n]! === 0;
    const c = this.sparse.get(key);
    if (c === undefined) return true;
    if (c <= 1) this.sparse.delete(key);
    else this.sparse.set(key, c - 1);
    return c <= 1;
  }

  private index(key: string): number | null {
    if (!/^(0|[1-9]\d{0,8})$/.test(key)) return null;
    const n = Number(key);
    return n < this.denseLimit ? n : null;
  }

  private grow(n: number): void {
    const next = new Uint16Array(Math.min(this.denseLimit, Math.max(n + 1, this.dense.length * 2)));
    next.set(this.dense);
    this.dense = next;
  }
}
