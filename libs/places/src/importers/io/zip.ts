import { close, fstatSync, openSync, read, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import type { SourceFile } from './source';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
/** How far from the end a zip's real end is looked for when bytes follow it (an appended HTML page is a few KB). */
const TRAILER_SCAN_BYTES = 4 << 20;

/**
 * A zip file read through our own descriptor, so yauzl can be told where the archive ends
 * (before anything appended). The descriptor is closed by `openZip`, when the ZipFile closes.
 */
class FdReader extends yauzl.RandomAccessReader {
  constructor(private readonly fd: number) {
    super();
  }
  // Positional reads (fs.read with a position), as yauzl's own fd reader: a ReadStream on a shared
  // descriptor closed it at its end whatever autoClose said (seen on Node 20).
  override _readStreamForRange(start: number, end: number): Readable {
    const fd = this.fd;
    let pos = start;
    return new Readable({
      read(size) {
        const n = Math.min(Math.max(size, 64 << 10), end - pos);
        if (n <= 0) return void this.push(null);
        const buf = Buffer.allocUnsafe(n);
        read(fd, buf, 0, n, pos, (err, bytes) => {
          if (err) return void this.destroy(err);
          if (bytes === 0) return void this.push(null);
          pos += bytes;
          this.push(buf.subarray(0, bytes));
        });
      },
    });
  }
}

/**
 * Where the archive ends when something follows it (GUS publishes the TERC zip with an HTML page
 * appended): the last end-of-central-directory record whose comment fits in the file and whose
 * central directory starts with its own signature right before it. Null when there is none.
 */
export function zipArchiveEnd(fd: number, fileSize: number): number | null {
  const from = Math.max(0, fileSize - TRAILER_SCAN_BYTES);
  const buf = Buffer.alloc(fileSize - from);
  readSync(fd, buf, 0, buf.length, from);
  const head = Buffer.alloc(4);
  for (let i = buf.length - 22; i >= 0; i--) {
    if (buf.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const end = from + i + 22 + buf.readUInt16LE(i + 20);
    if (end > fileSize) continue;
    const cdSize = buf.readUInt32LE(i + 12);
    const cdOffset = buf.readUInt32LE(i + 16);
    // Zip64 keeps the real values in its own record (yauzl reads it); 0xffffffff is the marker.
    if (cdOffset === 0xffffffff || cdSize === 0xffffffff) return end;
    if (cdOffset + cdSize > from + i) continue;
    if (buf.readUInt16LE(i + 10) === 0) return end;
    readSync(fd, head, 0, 4, cdOffset);
    if (head.readUInt32LE(0) === CENTRAL_SIGNATURE) return end;
  }
  return null;
}

/**
 * Opens a zip; one with bytes after its end (yauzl refuses: "Invalid comment length", or no end
 * record within its last 64 KB) is read up to its real end instead.
 */
export async function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  const fd = openSync(zipPath, 'r');
  const open = async (size: number) => {
    const zip = await yauzl.fromRandomAccessReaderPromise(new FdReader(fd), size, { lazyEntries: true, autoClose: false });
    zip.once('close', () => close(fd, () => undefined));
    return zip;
  };
  try {
    const size = fstatSync(fd).size;
    try {
      return await open(size);
    } catch (err) {
      if (!/comment length|signature not found/i.test((err as Error).message)) throw err;
      const end = zipArchiveEnd(fd, size);
      if (end === null) throw err;
      return await open(end);
    }
  } catch (err) {
    close(fd, () => undefined);
    throw new Error(`${zipPath}: ${(err as Error).message}`);
  }
}
/**
 * Entries of a zip whose names match, one at a time (lazyEntries): only the central directory
 * and the entry being read are in memory. Read (or destroy) one entry's stream before asking
 * for the next; the zip is closed when the iteration ends or is abandoned.
 */
export async function* zipEntries(zipPath: string, match?: RegExp): AsyncGenerator<SourceFile> {
  const zip = await openZip(zipPath);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      if (match && !match.test(entry.fileName)) continue;
      yield {
        name: entry.fileName,
        size: entry.uncompressedSize,
        open: (): Promise<Readable> => zip.openReadStreamPromise(entry),
      };
    }
  } finally {
    zip.close();
  }
}

/** The one entry of a zip with exactly this name (e.g. `CSV/20231231_OB_500011_ADR.csv`). */
export async function zipEntry(zipPath: string, entryName: string): Promise<{ stream: Readable; size: number }> {
  const zip = await openZip(zipPath);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== entryName) continue;
      const stream = await zip.openReadStreamPromise(entry);
      // The stream keeps reading from the zip's descriptor, so close the zip only after it.
      stream.once('close', () => zip.close());
      return { stream, size: entry.uncompressedSize };
    }
  } catch (err) {
    zip.close();
    throw err;
  }
  zip.close();
  throw new Error(`${zipPath}: no entry named ${entryName}`);
}
