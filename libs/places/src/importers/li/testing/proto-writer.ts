/**
 * The protocol-buffers writing the test PBF files need (varints, zigzag, length-delimited and
 * packed fields). Written independently of the pbf library the reader uses, so a test file is
 * not encoded by the code that decodes it.
 */
const BYTES = 2;

export class ProtoWriter {
  private readonly parts: number[] = [];

  varintField(field: number, v: number): this {
    return this.raw(field * 8 + 0).raw(v);
  }

  svarintField(field: number, v: number): this {
    return this.varintField(field, zigzag(v));
  }

  bytesField(field: number, data: Uint8Array | string): this {
    const b = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.raw(field * 8 + BYTES).raw(b.length);
    for (const x of b) this.parts.push(x);
    return this;
  }

  packedField(field: number, values: number[], signed = false): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.raw(signed ? zigzag(v) : v);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }

  private raw(v: number): this {
    if (v < 0 || !Number.isSafeInteger(v)) throw new Error(`cannot write ${v} as a varint`);
    while (v >= 0x80) {
      this.parts.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.parts.push(v);
    return this;
  }
}

function zigzag(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}
