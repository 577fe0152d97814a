/**
 * The few protocol-buffers primitives OSM PBF needs (varints, zigzag, length-delimited and
 * packed fields), read straight from a Uint8Array without a schema compiler. Numbers stay JS
 * numbers: OSM ids and coordinates fit in 53 bits.
 */
export const Wire = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;
export type Wire = number;

export class ProtoReader {
  pos: number;
  private readonly end: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field's number and wire type. */
  tag(): { field: number; wire: Wire } {
    const t = this.varint();
    return { field: Math.floor(t / 8), wire: (t % 8) as Wire };
  }

  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated protobuf varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new Error('protobuf varint longer than 10 bytes');
  }

  /** sint32/sint64 (zigzag). */
  svarint(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }

  bytes(): Uint8Array {
    const len = this.varint();
    const start = this.pos;
    this.pos += len;
    if (this.pos > this.end) throw new Error('truncated protobuf field');
    return this.buf.subarray(start, this.pos);
  }

  string(): string {
    return Buffer.from(this.bytes()).toString('utf8');
  }

  /** A packed repeated varint field (or a single unpacked value), appended to `out`. */
  packed(wire: Wire, out: number[], signed = false): void {
    if (wire !== Wire.Bytes) {
      out.push(signed ? this.svarint() : this.varint());
      return;
    }
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.end) throw new Error('truncated packed protobuf field');
    while (this.pos < end) out.push(signed ? this.svarint() : this.varint());
  }

  skip(wire: Wire): void {
    if (wire === Wire.Varint) this.varint();
    else if (wire === Wire.Fixed64) this.pos += 8;
    else if (wire === Wire.Bytes) this.bytes();
    else if (wire === Wire.Fixed32) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (this.pos > this.end) throw new Error('truncated protobuf field');
  }
}

/** The writing side, for tests that build their own PBF files. */
export class ProtoWriter {
  private readonly parts: number[] = [];

  varintField(field: number, v: number): this {
    return this.raw(field * 8 + Wire.Varint).raw(v);
  }

  svarintField(field: number, v: number): this {
    return this.varintField(field, zigzag(v));
  }

  bytesField(field: number, data: Uint8Array | string): this {
    const b = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.raw(field * 8 + Wire.Bytes).raw(b.length);
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
