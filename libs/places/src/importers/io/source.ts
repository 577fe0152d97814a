import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
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
