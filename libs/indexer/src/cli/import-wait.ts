import { ConsumerInfo, JetStreamManager } from 'nats';
import { DatasetStatus, LiveDataset } from '@lookup/shared/runtime';
import { DatasetUpdatedEvent, eventMsgId } from '../datasets/dataset-event';
import { DeadLetter } from '../datasets/dataset-consumer';
import { datasetSubjects } from '../datasets/datasets.constants';
import { streamDeadLetters } from '../datasets/dataset-stream';
import { statusLines } from './dataset-status';
import { ImportProgress, progressText } from '../datasets/import-progress';


/** How often the stream, the consumer and the status are looked at. */
const POLL_MS = 1000;
/** How often a waiting line is printed. */
const SAY_EVERY_MS = 30_000;

export interface WaitDeps {
  jsm: JetStreamManager;
  prefix: string;
  /** The profile's status store (the `<INDEX_PREFIX>-datasets` index in the distributed profile). */
  readStatus: () => Promise<DatasetStatus>;
  out: (line: string) => void;
  pollMs?: number;
  /** How often a waiting line is printed (default 30 s). */
  sayEveryMs?: number;
  /** What an indexer is importing now (askProgress), shown in the waiting lines when it is this event. */
  progress?: () => Promise<ImportProgress | null>;
}

/** The indexer gave up on the event (dead letter), or it was not done in time: the CLI exits 1 with this message. */
export class ImportWaitError extends Error {}

/**
 * After `publish`: waits until the indexer has handled the event published at stream sequence
 * `published.seq` (a duplicate: the first one's). Live: the status store names the event (the indexer
 * records it before it acks). Given up: a dead letter for it after `seq` (published before the
 * event is terminated). Handled but neither (a duplicate of an import that a later one
 * replaced, or a status write that failed): the consumer's ack floor passed `seq`; what is live
 * now is printed. Polls once a second, so a second indexer replica or a restart changes nothing.
 */
export async function waitForIndexer(event: DatasetUpdatedEvent, published: { seq: number; duplicate: boolean }, timeoutS: number, deps: WaitDeps): Promise<void> {
  const seq = published.seq;
  const id = eventMsgId(event);
  const s = datasetSubjects(deps.prefix);
  const started = Date.now();
  const deadline = started + timeoutS * 1000;
  let said = started;
  let scanned = seq;
  deps.out(`waiting for the indexer (at most ${timeoutS} s)`);
  const line = (live: LiveDataset) => statusLines({ [event.country]: { [event.kind]: live } })[0];
  let consumer: ConsumerInfo | null = null;
  let complained = 0;
  // Polls in a row that found no indexer asking for events and none importing one.
  let unread = 0;
  for (;;) {
    try {
      // The floor first: what it shows as handled has its status or dead letter written already.
      consumer = await deps.jsm.consumers.info(s.stream, s.durable).catch(() => null);
      unread = consumer && !beingRead(consumer) ? unread + 1 : 0;
      const live = (await deps.readStatus())[event.country]?.[event.kind];
      if (live?.event === id) {
        deps.out(`live: ${line(live)}`);
        for (const n of live.notes ?? []) deps.out(`  note: ${n}`);
        return;
      }
      for await (const { seq: at, dl } of streamDeadLetters(deps.jsm, deps.prefix, scanned)) {
        scanned = at;
        if (ofEvent(dl) && eventMsgId(dl.event as unknown as DatasetUpdatedEvent) === id) {
          throw new ImportWaitError(`the indexer gave up on it after ${dl.attempts} attempt(s) at ${dl.failedAt}: ${dl.reason}; nothing of it went live`);
        }
      }
      if (consumer && consumer.ack_floor.stream_seq >= seq) {
        const liveNow = `live now: ${live ? line(live) : 'nothing'}`;
        deps.out(published.duplicate ? `the indexer handled it earlier; ${liveNow}` : `the indexer has handled it, but the status does not name it (see the indexer's log); ${liveNow}`);
        return;
      }
    } catch (err) {
      if (err instanceof ImportWaitError) throw err;
      // NATS or the status store away for a moment: the import goes on; so does the wait.
      if (Date.now() - complained >= SAY_EVERY_MS) {
        complained = Date.now();
        deps.out(`cannot look at the indexer's progress (${(err as Error).message}); trying again`);
      }
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new ImportWaitError(`not live after ${timeoutS} s: ${waiting(consumer, unread >= 2)}; the event stays queued (see \`lookup import status\` and the indexer's log)`);
    }
    if (now - said >= (deps.sayEveryMs ?? SAY_EVERY_MS)) {
      said = now;
      const p = await deps.progress?.().catch(() => null);
      const mine = p && p.event === id ? `; importing it: ${progressText(p)}` : '';
      deps.out(`still waiting after ${Math.round((now - started) / 1000)} s: ${waiting(consumer, unread >= 2)}${mine}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(deps.pollMs ?? POLL_MS, deadline - now)));
  }
}

function waiting(consumer: ConsumerInfo | null, unread: boolean): string {
  if (!consumer) return 'no indexer has joined the stream yet (start the indexer app)';
  return `${consumer.num_ack_pending} event(s) being imported, ${consumer.num_pending} queued${unread ? `; ${NO_READER}` : ''}`;
}

/** What is said when the consumer exists but nothing reads it (the indexer app stopped). */
const NO_READER = 'no indexer is reading the stream now (start the indexer app)';

/**
 * Whether an indexer reads the consumer now: one asks for the next event (an idle indexer always
 * has a pull request waiting, renewed each second) or is importing one.
 */
function beingRead(c: ConsumerInfo): boolean {
  return c.num_waiting > 0 || c.num_ack_pending > 0;
}

type EventDeadLetter = DeadLetter & { event: Record<string, unknown> };

/** A dead letter whose event is an object (an invalid event's may be its text). */
const ofEvent = (dl: DeadLetter | null): dl is EventDeadLetter => dl !== null && typeof dl.event === 'object' && dl.event !== null;

/**
 * `import status`'s lines for what the indexer gave up on (distributed): per country and kind,
 * its last dead letter when it came after what is live (or nothing is).
 */
export async function failureLines(jsm: JetStreamManager, prefix: string, status: DatasetStatus): Promise<string[]> {
  const last = new Map<string, EventDeadLetter>();
  for await (const { dl } of streamDeadLetters(jsm, prefix)) if (ofEvent(dl)) last.set(`${String(dl.event['country'])} ${String(dl.event['kind'])}`, dl);
  const lines: string[] = [];
  for (const [key, dl] of [...last].sort(([a], [b]) => a.localeCompare(b))) {
    const [country, kind] = key.split(' ') as [string, string];
    const live = status[country]?.[kind];
    if (live && live.since >= dl.failedAt) continue;
    lines.push(`${country} ${kind.padEnd(15)} FAILED at ${dl.failedAt} after ${dl.attempts} attempt(s): ${dl.reason}  from ${String(dl.event['location'])}`);
  }
  return lines;
}

/** Queued events named one a line; the rest are counted. */
const SHOWN_QUEUED = 20;

/**
 * `import status`'s lines for the events the indexer has not finished (distributed): the one it is
 * importing (delivered, not acked yet) and those queued behind it, oldest first, each with its
 * sequence, publish time and file; what no indexer has joined the stream to take says so.
 */
export async function queueLines(jsm: JetStreamManager, prefix: string, recheckMs = 1500, progress?: () => Promise<ImportProgress | null>): Promise<string[]> {
  const s = datasetSubjects(prefix);
  const consumer = await jsm.consumers.info(s.stream, s.durable).catch((err: Error) => {
    if (/consumer not found/i.test(err.message)) return null;
    throw err;
  });
  const floor = consumer?.ack_floor.stream_seq ?? 0;
  const delivered = consumer && consumer.num_ack_pending > 0 ? consumer.delivered.stream_seq : floor;
  const lines: string[] = [];
  let queued = 0;
  for await (const { seq, event, time } of streamDeadLetters(jsm, prefix, floor)) {
    if (!event) continue;
    const importing = seq <= delivered;
    if (!importing && ++queued > SHOWN_QUEUED) continue;
    const what = `${String(event['country'] ?? '?')} ${String(event['kind'] ?? '?').padEnd(15)}`;
    lines.push(`${what} ${importing ? 'IMPORTING' : 'QUEUED'} (seq ${seq}, published ${time.toISOString()})  from ${String(event['location'] ?? '?')}`);
    if (importing && progress) {
      const p = await progress().catch(() => null);
      if (p && p.event === eventMsgId(event as unknown as DatasetUpdatedEvent)) lines.push(`${' '.repeat(19)}${progressText(p)}`);
    }
  }
  if (queued > SHOWN_QUEUED) lines.push(`... and ${queued - SHOWN_QUEUED} more queued`);
  if (!consumer && lines.length) lines.push('no indexer has joined the stream yet: start the indexer app to import these');
  // Queued with no indexer asking, looked at twice (an indexer renews its request each second).
  if (consumer && queued > 0 && !beingRead(consumer)) {
    await new Promise((r) => setTimeout(r, recheckMs));
    const again = await jsm.consumers.info(s.stream, s.durable);
    if (!beingRead(again)) lines.push('no indexer is reading the stream now: start the indexer app to import these');
  }
  return lines;
}
