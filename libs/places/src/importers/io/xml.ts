import { SaxesParser } from 'saxes';
import { readText } from './lines';
import { SourceFile } from './source';

/** What a streaming XML reader keeps between chunks: the records found so far, taken after each chunk. */
export interface XmlWalker<T, Tag> {
  readonly out: T[];
  open(tag: Tag): void;
  close(tag: Tag): void;
  text(t: string): void;
}

/**
 * Feeds a file's text through a saxes parser to a walker and yields its records chunk by chunk,
 * so memory stays flat whatever the file's size. A parse error names the file; throwing `stop`
 * from the walker ends the file quietly (it has what it wants).
 */
export async function* walkXml<T, Tag>(file: SourceFile, parser: SaxesParser<{ xmlns?: boolean; position: true }>, walker: XmlWalker<T, Tag>, stop?: unknown): AsyncGenerator<T> {
  parser.on('opentag', (tag) => walker.open(tag as Tag));
  parser.on('closetag', (tag) => walker.close(tag as Tag));
  parser.on('text', (t) => walker.text(t));
  parser.on('cdata', (t) => walker.text(t));
  try {
    for await (const text of readText(await file.open())) {
      parser.write(text);
      yield* walker.out.splice(0);
    }
    parser.close();
    yield* walker.out.splice(0);
  } catch (err) {
    if (stop !== undefined && err === stop) return;
    throw new Error(`${file.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
