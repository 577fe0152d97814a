/** One answer (or failure to get one) seen by the traffic generator. */
export interface TrafficSample {
  /** ms since the traffic started, when the request was sent. */
  at: number;
  ms: number;
  kind: string;
  /** HTTP status; 0 when no answer came (socket error or client-side abort). */
  status: number;
  errorType?: string;
  /** The error body's message: which part answered, and why (a failure report needs it to tell causes apart). */
  errorMessage?: string;
  failure?: string;
  /** The retry headers of an error answer, as the official SDKs read them. */
  retryAfter?: string;
  shouldRetry?: string;
}

export interface TrafficRequest {
  kind: string;
  url: string;
  body: Record<string, unknown>;
}

/**
 * Steady traffic from `workers` loops, each sending one request after the other (closed loop),
 * so a hang shows as a long sample instead of a pile of queued requests. `abortMs` bounds the
 * client's wait: a sample at that length is a hang.
 */
export class TrafficGenerator {
  readonly samples: TrafficSample[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private t0 = 0;

  constructor(
    private readonly next: (i: number) => TrafficRequest,
    private readonly workers = 4,
    private readonly abortMs = 15000,
    private readonly pauseMs = 20,
  ) {}

  now(): number {
    return Date.now() - this.t0;
  }

  start(): void {
    this.running = true;
    this.t0 = Date.now();
    let n = 0;
    this.loops = Array.from({ length: this.workers }, async () => {
      while (this.running) {
        const req = this.next(n++);
        this.samples.push(await this.send(req));
        await new Promise((r) => setTimeout(r, this.pauseMs));
      }
    });
  }

  async stop(): Promise<TrafficSample[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.samples;
  }

  private async send(req: TrafficRequest): Promise<TrafficSample> {
    const at = this.now();
    const t = Date.now();
    try {
      const res = await fetch(req.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(req.body),
        signal: AbortSignal.timeout(this.abortMs),
      });
      const text = await res.text();
      let errorType: string | undefined;
      let errorMessage: string | undefined;
      if (res.status >= 400) {
        try {
          const error = (JSON.parse(text) as { error?: { type?: string; message?: string } }).error;
          errorType = error?.type;
          errorMessage = error?.message;
        } catch {
          errorType = 'unparsable';
        }
      }
      const sample: TrafficSample = { at, ms: Date.now() - t, kind: req.kind, status: res.status, errorType, errorMessage };
      if (res.status >= 400) {
        sample.retryAfter = res.headers.get('retry-after') ?? undefined;
        sample.shouldRetry = res.headers.get('swiftyper-should-retry') ?? undefined;
      }
      return sample;
    } catch (err) {
      return { at, ms: Date.now() - t, kind: req.kind, status: 0, failure: (err as Error).name + ': ' + (err as Error).message };
    }
  }
}

/** Samples sent within [from, to) ms. */
export function between(samples: TrafficSample[], from: number, to: number): TrafficSample[] {
  return samples.filter((s) => s.at >= from && s.at < to);
}

/** One phase of a fault run, in ms since the traffic started: it spans [from, to), its part was down over [downAt, upAt]. */
export interface PhaseWindow {
  from: number;
  to: number;
  downAt: number;
  upAt: number;
}

/**
 * The samples of each phase. A request lives from its sending to its answer, and met every
 * outage that began before its answer and ended after its sending: it belongs to the first of
 * them. One sent in the last milliseconds of a calm stretch and answered during the next
 * outage is that outage's; one sent during an outage and answered late, in the next phase,
 * stays with the outage it was sent in. A request that met no outage belongs to the phase it
 * was sent in. Samples sent before the first phase or from the last one's end belong to none.
 */
export function samplesByPhase(samples: TrafficSample[], phases: PhaseWindow[]): TrafficSample[][] {
  const out = phases.map((): TrafficSample[] => []);
  for (const s of samples) {
    const end = s.at + s.ms;
    let i = phases.findIndex((p) => s.at <= p.upAt && end >= p.downAt);
    if (i < 0) i = phases.findIndex((p) => s.at >= p.from && s.at < p.to);
    if (i >= 0) out[i].push(s);
  }
  return out;
}

/** A compact summary for failure messages: status -> count. */
export function statusCounts(samples: TrafficSample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) {
    const k = s.status === 0 ? `no answer (${s.failure})` : s.errorType ? `${s.status} ${s.errorType}` : String(s.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** The q-quantile (0..1) of a list of numbers, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
