/**
 * Which numeric ids have been seen, for 3 million+ addresses: a bit per id below 2^28 (EGAIDs
 * are 9-digit numbers around 1e8, so about 13 MB), a Set for anything else.
 */
export class SeenIds {
  private static readonly LIMIT = 2 ** 28;
  private bits = new Uint8Array(1 << 20);
  private readonly other = new Set<number>();

  /** True when the id is new. */
  add(id: number): boolean {
    if (!Number.isSafeInteger(id) || id < 0 || id >= SeenIds.LIMIT) {
      if (this.other.has(id)) return false;
      this.other.add(id);
      return true;
    }
    const byte = id >>> 3;
    if (byte >= this.bits.length) this.grow(byte);
    const mask = 1 << (id & 7);
    if (this.bits[byte]! & mask) return false;
    this.bits[byte] = this.bits[byte]! | mask;
    return true;
  }

  private grow(byte: number): void {
    let size = this.bits.length;
    while (size <= byte) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bits);
    this.bits = next;
  }
}
