/** What an import reports as it goes (the pipeline's DatasetProgress). */
export interface ProgressSnapshot {
  docs: number;
  bytes?: number;
  totalBytes?: number;
}

export interface ProgressEstimate {
  /** Documents the run will likely write (the live version's count): the ETA's basis when bytes read are not known. */
  expectedDocs?: number;
}

export interface ProgressView {
  docs: number;
  /** Documents per second since the start. */
  rate: number;
  /** 0..1 when the input's size is known. */
  fraction: number | null;
  etaSeconds: number | null;
  elapsedSeconds: number;
}

/**
 * Rate and ETA from a snapshot. The fraction is the source's bytes read (what the importer
 * counted), never a guess: without them there is no fraction and no ETA, only the rate.
 */
export function progressView(p: ProgressSnapshot, elapsedSeconds: number, _e: ProgressEstimate = {}): ProgressView {
  const t = Math.max(elapsedSeconds, 1e-3);
  const fraction = p.totalBytes && p.bytes !== undefined ? Math.min(1, p.bytes / p.totalBytes) : null;
  const etaSeconds = fraction !== null && fraction > 0 ? Math.round((t * (1 - fraction)) / fraction) : null;
  return { docs: p.docs, rate: Math.round(p.docs / t), fraction, etaSeconds, elapsedSeconds: Math.round(elapsedSeconds * 10) / 10 };
}

function clock(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  return `${h ? `${h}:` : ''}${String(m).padStart(h ? 2 : 1, '0')}:${String(sec).padStart(2, '0')}`;
}

/** One terminal line: `[#####-----]  42% 1,234,567 docs  52,300 docs/s  ETA 0:35`. */
export function progressBar(v: ProgressView, width = 30): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const stats = `${n(v.docs)} docs  ${n(v.rate)} docs/s`;
  if (v.fraction === null) return `${stats}  ${clock(v.elapsedSeconds)} elapsed`;
  const full = Math.round(v.fraction * width);
  const eta = v.etaSeconds === null ? '--:--' : clock(v.etaSeconds);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${String(Math.floor(v.fraction * 100)).padStart(3)}% ${stats}  ETA ${eta}`;
}

export interface ProgressOutput {
  write(s: string): unknown;
  isTTY?: boolean;
}

export interface ProgressReporter {
  update(p: ProgressSnapshot): void;
  /** A step without documents to count (sealing, verifying, switching): a line of its own (a JSON line off a terminal). */
  step(message: string): void;
  /** Draws the last state (a final JSON line, or the bar ended with a newline). */
  finish(): void;
}

/**
 * A bar redrawn in place on a terminal, or one JSON log line per `logEveryMs` otherwise (a CI
 * log or a file must not get a line per batch).
 */
export function progressReporter(out: ProgressOutput, o: { label: string; logEveryMs?: number; drawEveryMs?: number; now?: () => number } & ProgressEstimate): ProgressReporter {
  const now = o.now ?? Date.now;
  const t0 = now();
  const every = out.isTTY ? (o.drawEveryMs ?? 100) : (o.logEveryMs ?? 5000);
  let last: ProgressSnapshot | null = null;
  let shownAt = -Infinity;
  let drawn = false;
  const show = () => {
    if (!last) return;
    const v = progressView(last, (now() - t0) / 1000, o);
    if (out.isTTY) {
      out.write(`\r\x1b[2K${o.label} ${progressBar(v)}`);
      drawn = true;
    } else out.write(`${JSON.stringify({ event: 'import.progress', dataset: o.label, ...v, bytes: last.bytes ?? null, totalBytes: last.totalBytes ?? null })}\n`);
  };
  return {
    update(p) {
      // Never backwards within a phase (a URL's download, then the reading: each has its own total).
      const samePhase = last?.bytes !== undefined && (p.totalBytes === undefined || p.totalBytes === last.totalBytes);
      last = samePhase && (p.bytes === undefined || p.bytes < last!.bytes!) ? { ...p, bytes: last!.bytes, totalBytes: last!.totalBytes } : p;
      if (now() - shownAt < every) return;
      shownAt = now();
      show();
    },
    step(message) {
      this.finish();
      if (out.isTTY) out.write(`${o.label}: ${message}\n`);
      else out.write(`${JSON.stringify({ event: 'import.step', dataset: o.label, message, elapsedSeconds: Math.round((now() - t0) / 100) / 10 })}\n`);
    },
    finish() {
      show();
      if (drawn) out.write('\n');
      drawn = false;
      last = null;
    },
  };
}
