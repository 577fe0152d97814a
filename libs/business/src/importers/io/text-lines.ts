import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import * as iconv from 'iconv-lite';

export type TextEncoding = 'utf8' | 'windows-1250';

/** Lines of a byte stream, decoded; a UTF-8 byte-order mark is dropped. */
export async function* streamLines(stream: Readable, encoding: TextEncoding = 'utf8'): AsyncGenerator<string> {
  const text = encoding === 'utf8' ? stream.setEncoding('utf8') : stream.pipe(iconv.decodeStream(encoding));
  const rl = createInterface({ input: text, crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    yield first && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
    first = false;
  }
}

export function fileLines(path: string, encoding: TextEncoding = 'utf8'): AsyncGenerator<string> {
  return streamLines(createReadStream(path, { highWaterMark: 1 << 20 }), encoding);
}

/**
 * RFC 4180 records: quoted fields may hold the delimiter, doubled quotes and line breaks (the
 * record then spans lines).
 */
export async function* csvRows(lines: AsyncIterable<string>, delimiter = ','): AsyncGenerator<string[]> {
  let pending: string | null = null;
  for await (const line of lines) {
    const text: string = pending === null ? line : `${pending}\n${line}`;
    if (!text.includes('"')) {
      pending = null;
      yield text.split(delimiter);
      continue;
    }
    const row = parseQuoted(text, delimiter);
    if (row === null) {
      pending = text;
      continue;
    }
    pending = null;
    yield row;
  }
  if (pending !== null) throw new Error('CSV: a quoted field is not closed at the end of the input');
}

/** Fields of one complete record, or null when a quoted field is still open. */
export function parseQuoted(text: string, delimiter: string): string[] | null {
  const out: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else field += c;
    } else if (c === '"' && field === '') inQuotes = true;
    else if (c === delimiter) {
      out.push(field);
      field = '';
    } else field += c;
  }
  if (inQuotes) return null;
  out.push(field);
  return out;
}

/** Rows as objects keyed by the header line's names. */
export async function* csvObjects(lines: AsyncIterable<string>, delimiter = ','): AsyncGenerator<{ row: Record<string, string>; line: number }> {
  let header: string[] | null = null;
  let n = 0;
  for await (const fields of csvRows(lines, delimiter)) {
    n++;
    if (!header) {
      header = fields.map((h) => h.trim());
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    const row: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) row[header[i]] = fields[i] ?? '';
    yield { row, line: n };
  }
}
