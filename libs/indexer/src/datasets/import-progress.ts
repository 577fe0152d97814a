import { NatsConnection, Subscription } from 'nats';

/** What the indexer is importing now, as it answers on `progressSubject` (null: nothing). */
export interface ImportProgress {
  /** The event's id (eventMsgId), as `--wait` knows it. */
  event: string;
  /** `cz-addresses`. */
  dataset: string;
  /** Share of the source read, 0..1; null while unknown (a source of unknown size). */
  fraction: number | null;
  docs: number;
  /** Seconds since the import began. */
  seconds: number;
}

/** Core NATS (outside the dataset stream's subjects): the indexer answers what it is importing. */
export function progressSubject(prefix: string): string {
  return `${prefix}.indexer.progress`;
}

/** The indexer side: answers each request with `current()`. */
export function answerProgress(nc: NatsConnection, prefix: string, current: () => ImportProgress | null): Subscription {
  return nc.subscribe(progressSubject(prefix), {
    callback: (err, msg) => {
      if (!err) msg.respond(JSON.stringify(current()));
    },
  });
}

/** The CLI side: what an indexer is importing, or null when none answers within `timeoutMs` or none imports. */
export async function askProgress(nc: NatsConnection, prefix: string, timeoutMs = 1000): Promise<ImportProgress | null> {
  try {
    const reply = await nc.request(progressSubject(prefix), '', { timeout: timeoutMs });
    return JSON.parse(reply.string()) as ImportProgress | null;
  } catch {
    return null;
  }
}

/** `43 % read, 1 203 000 documents, about 6 min left` (the estimate once a tenth is read). */
export function progressText(p: ImportProgress): string {
  const docs = `${p.docs.toLocaleString('en-US').replace(/,/g, ' ')} documents`;
  if (p.fraction === null) return `${docs} after ${Math.round(p.seconds)} s`;
  const left = p.fraction >= 0.1 && p.fraction < 1 ? (p.seconds / p.fraction) * (1 - p.fraction) : null;
  const eta = left === null ? '' : `, about ${left < 90 ? `${Math.round(left)} s` : `${Math.round(left / 60)} min`} left`;
  return `${Math.floor(p.fraction * 100)} % read, ${docs}${eta}`;
}
