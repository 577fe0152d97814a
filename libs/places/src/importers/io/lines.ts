import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import * as iconv from 'iconv-lite';
import type { SourceFile } from './source';

export interface LineOptions {
  /** Any iconv-lite encoding, e.g. `windows-1250` for RUIAN CSV; default UTF-8. A BOM is dropped. */
  encoding?: string;
}

export type LineInput = string | Readable | SourceFile;

async function toStream(input: LineInput): Promise<Readable> {
  if (typeof input === 'string') return createReadStream(input);
  if (input instanceof Readable) return input;
  return input.open();
}

/**
 * Decoded text of a file, stream or source, chunk by chunk; multi-byte characters split
 * across chunks are kept whole. Memory is one chunk, whatever the file size.
 */
export async function* readText(input: LineInput, options: LineOptions = {}): AsyncGenerator<string> {
  const encoding = options.encoding ?? 'utf-8';
  if (!iconv.encodingExists(encoding)) throw new Error(`unknown encoding ${encoding}`);
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  const stream = await toStream(input);
  try {
    for await (const chunk of stream) {
      const text = decoder.write(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } finally {
    stream.destroy();
  }
}

/** Lines without their terminator (LF or CRLF); a final line without one is still yielded. */
export async function* readLines(input: LineInput, options: LineOptions = {}): AsyncGenerator<string> {
  let pending = '';
  for await (const text of readText(input, options)) {
    const parts = (pending + text).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  if (pending) yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}
