import type { DatasetImporter, ImportContext } from './importers';
import { PermanentDatasetError } from './importers';

/**
 * System error codes of a passing trouble (the disk or the file system busy, out of handles or
 * space, a network file system away): the same file may read when asked again.
 */
const PASSING_CODES = new Set(['EIO', 'EMFILE', 'ENFILE', 'ENOSPC', 'EAGAIN', 'EBUSY', 'ETIMEDOUT', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ESTALE']);

/**
 * What an error the importer threw while reading `label` means for a retry: one about the file
 * (not its format, a header without the columns, a truncated zip, bad JSON) is permanent, the
 * same file failing the same way on every try, so the consumer dead-letters it at once instead of
 * trying three times a minute apart; a passing trouble (PASSING_CODES, or an answer of the search
 * engine read on the way) stays as it was, to be retried. The message names the file.
 * `permanent` false: a file downloaded without a checksum, which the next try downloads again
 * (a download cut short without a sign reads as a broken file): named, left to be retried.
 */
export function fileError(err: unknown, label: string, permanent = true): unknown {
  if (!(err instanceof Error) || (err as { permanent?: boolean }).permanent) return err;
  const code = (err as NodeJS.ErrnoException).code;
  // The engine's answers and failed writes (a change batch writes while it reads), and SQLite's state files, are not the file's fault.
  const passing = (code && (PASSING_CODES.has(code) || code.startsWith('SQLITE_'))) || 'meta' in err || ['ConnectionError', 'TimeoutError', 'BulkIndexError'].includes(err.name);
  if (passing) return err;
  const message = err.message.includes(label) ? err.message : `${label}: ${err.message}`;
  if (!permanent) {
    err.message = message;
    return err;
  }
  const e = new PermanentDatasetError(message);
  (e as { cause?: unknown }).cause = err;
  return e;
}

/** The importer, its reading's errors passed through fileError (the run's writes are not its to judge). */
export function readingErrorsNamed<T extends DatasetImporter>(importer: T, label: string, permanent = true): T {
  return {
    ...importer,
    async *docs(ctx: ImportContext) {
      const it = (importer.docs as (c: ImportContext) => AsyncIterable<unknown[]>)(ctx)[Symbol.asyncIterator]();
      let done = false;
      try {
        for (;;) {
          let next: IteratorResult<unknown[]>;
          try {
            next = await it.next();
          } catch (err) {
            done = true;
            throw fileError(err, label, permanent);
          }
          if (next.done) {
            done = true;
            return;
          }
          yield next.value;
        }
      } finally {
        // Stopped early (a write failed): the importer closes its file.
        if (!done) await it.return?.();
      }
    },
  } as T;
}
