export interface CsvOptions {
  /** `,` by default; RUIAN uses `;`. */
  delimiter?: string;
}

export interface CsvRecord {
  fields: string[];
  /** 1-based number of the line the record starts on. */
  line: number;
}

/**
 * RFC 4180 records from lines: quoted fields may hold the delimiter, doubled quotes and line
 * breaks (a record then spans several lines). A quote inside an unquoted field is kept as text.
 */
export async function* csvRecords(lines: AsyncIterable<string>, options: CsvOptions = {}): AsyncGenerator<CsvRecord> {
  const delimiter = options.delimiter ?? ',';
  let lineNo = 0;
  let start = 0;
  let state: ParseState | null = null;
  for await (const line of lines) {
    lineNo++;
    if (state) {
      state.field += '\n';
    } else {
      start = lineNo;
      // Fast path: most register lines hold no quote at all, and split() is many times faster.
      if (!line.includes('"')) {
        yield { fields: line.split(delimiter), line: start };
        continue;
      }
      state = { fields: [], field: '', quoted: false, inQuotes: false };
    }
    parseInto(state, line, delimiter);
    if (state.inQuotes) continue;
    state.fields.push(state.field);
    yield { fields: state.fields, line: start };
    state = null;
  }
  if (state) throw new Error(`CSV line ${start}: quoted field is not closed at the end of the input`);
}

/** One complete line as fields; throws when a quoted field runs past its end. */
export function parseCsvLine(line: string, delimiter = ','): string[] {
  const state: ParseState = { fields: [], field: '', quoted: false, inQuotes: false };
  parseInto(state, line, delimiter);
  if (state.inQuotes) throw new Error(`unclosed quoted field in: ${line}`);
  state.fields.push(state.field);
  return state.fields;
}

interface ParseState {
  fields: string[];
  field: string;
  /** The current field began with a quote. */
  quoted: boolean;
  inQuotes: boolean;
}

function parseInto(s: ParseState, line: string, delimiter: string): void {
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (s.inQuotes) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          s.field += '"';
          i += 2;
          continue;
        }
        s.inQuotes = false;
      } else {
        s.field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && s.field === '' && !s.quoted) {
      s.quoted = true;
      s.inQuotes = true;
    } else if (line.startsWith(delimiter, i)) {
      s.fields.push(s.field);
      s.field = '';
      s.quoted = false;
      i += delimiter.length;
      continue;
    } else {
      s.field += ch;
    }
    i++;
  }
}

/** Records as objects keyed by the header record's names. */
export async function* csvObjects(
  lines: AsyncIterable<string>,
  options: CsvOptions = {},
): AsyncGenerator<{ row: Record<string, string>; line: number; width: number; headerWidth: number }> {
  let header: string[] | null = null;
  for await (const rec of csvRecords(lines, options)) {
    if (!header) {
      header = rec.fields.map((h) => h.trim());
      continue;
    }
    if (rec.fields.length === 1 && rec.fields[0] === '') continue;
    const row: Record<string, string> = {};
    header.forEach((h, i) => (row[h] = rec.fields[i] ?? ''));
    yield { row, line: rec.line, width: rec.fields.length, headerWidth: header.length };
  }
}
