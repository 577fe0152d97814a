import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { zipEntries } from './zip';

/** One readable input: a plain file, a zip entry or a folder member, opened only when read. */
export interface SourceFile {
  /** File name, or the entry's path inside its zip. */
  name: string;
  size: number;
  open(): Promise<Readable>;
}

export async function fileSource(path: string): Promise<SourceFile> {
  const { size } = await stat(path);
  return { name: basename(path), size, open: async () => createReadStream(path) };
}

/** Files of one folder (not recursive) whose names match, in name order. */
export async function* folderFiles(dir: string, match?: RegExp): AsyncGenerator<SourceFile> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isFile() && (!match || match.test(d.name)))
    .map((d) => d.name)
    .sort();
  for (const name of names) yield fileSource(join(dir, name));
}

/**
 * Everything readable at a path: the matching entries of a zip, the matching files of a
 * folder, or the file itself. Each yielded source must be read before asking for the next.
 */
export async function* sourcesAt(path: string, match?: RegExp): AsyncGenerator<SourceFile> {
  if ((await stat(path)).isDirectory()) yield* folderFiles(path, match);
  else if (/\.zip$/i.test(path)) yield* zipEntries(path, match);
  else yield fileSource(path);
}

/** Bytes of a source read so far and its total (uncompressed), for a progress bar's fraction and ETA. */
export type BytesRead = (read: number, total: number) => void;

/**
 * `sourcesAt` with the bytes read counted: the matching sources are listed first (a zip's
 * central directory, a folder's sizes) for the total, and each one's stream counts what passes.
 * The count only grows and reaches the total when the last source is read.
 */
export async function* meteredSourcesAt(path: string, match: RegExp | undefined, onBytes: BytesRead): AsyncGenerator<SourceFile> {
  let total = 0;
  for await (const s of sourcesAt(path, match)) total += s.size;
  let read = 0;
  onBytes(0, total);
  for await (const s of sourcesAt(path, match)) {
    yield {
      ...s,
      open: async () => {
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            read += chunk.length;
            onBytes(Math.min(read, total), total);
            done(null, chunk);
          },
        });
        // pipeline, not pipe: a read error of the source reaches the reader through the counter.
        return pipeline(await s.open(), counter, () => undefined);
      },
    };
  }
  onBytes(total, total);
}
