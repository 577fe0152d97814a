import { writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Writes a minimal zip (stored or deflated entries, UTF-8 names) so tests can exercise the zip
 * readers without committing binary fixtures; yauzl itself cannot write.
 */
export function writeTestZip(path: string, entries: { name: string; data: Buffer | string; deflate?: boolean }[]): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : e.data;
    const body = e.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const common = (h: Buffer, at: number) => {
      h.writeUInt16LE(20, at); // version needed
      h.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      h.writeUInt16LE(e.deflate ? 8 : 0, at + 4);
      h.writeUInt16LE(0, at + 6); // time
      h.writeUInt16LE(0x21, at + 8); // date 1980-01-01
      h.writeUInt32LE(crc32(raw), at + 10);
      h.writeUInt32LE(body.length, at + 14);
      h.writeUInt32LE(raw.length, at + 18);
      h.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, cd, end]));
}
