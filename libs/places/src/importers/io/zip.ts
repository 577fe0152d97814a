import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import type { SourceFile } from './source';

/**
 * Entries of a zip whose names match, one at a time (lazyEntries): only the central directory
 * and the entry being read are in memory. Read (or destroy) one entry's stream before asking
 * for the next; the zip is closed when the iteration ends or is abandoned.
 */
export async function* zipEntries(zipPath: string, match?: RegExp): AsyncGenerator<SourceFile> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
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
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
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
