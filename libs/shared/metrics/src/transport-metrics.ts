import { metrics } from './metrics.registry';
import { TransportOutcome } from './metrics.constants';

/** What a transport error means for the metrics: a timeout, nobody listening, or anything else. */
export function transportOutcomeOf(err: unknown): TransportOutcome {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'timeout') return 'timeout';
  if (type === 'service_unavailable') return 'no_responder';
  return 'error';
}

/** Records one gateway -> service round trip; `startedAt` from `performance.now()`. */
export function observeTransport(subject: string, startedAt: number, outcome: TransportOutcome): void {
  const m = metrics();
  m.transportRequests.inc({ subject, outcome });
  m.transportDuration.observe({ subject }, (performance.now() - startedAt) / 1000);
  if (outcome === 'timeout') m.transportTimeouts.inc({ subject });
  if (outcome === 'no_responder') m.transportNoResponders.inc({ subject });
}

/** Wraps one transport call: times it and classifies its failure, then passes the result on. */
export async function measureTransport<T>(subject: string, call: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await call();
    observeTransport(subject, t0, 'ok');
    return out;
  } catch (err) {
    observeTransport(subject, t0, transportOutcomeOf(err));
    throw err;
  }
}
