import { metrics } from './metrics.registry';

/**
 * Hooks for the indexer: one tracker per import run. `total` may be unknown (a stream); then
 * progress stays 0 until the run finishes and only the document count moves.
 */
export class IndexerProgress {
  private done = 0;
  private readonly started = Date.now();

  constructor(
    private readonly dataset: string,
    private readonly total?: number,
  ) {
    metrics().indexerProgress.set({ dataset }, 0);
    metrics().indexerRunning.set({ dataset }, 1);
  }

  private ratio = 0;

  /** The share of the source read so far (bytes): the ratio follows it and never goes back. */
  read(fraction: number): void {
    if (!(fraction > this.ratio)) return;
    this.ratio = Math.min(1, fraction);
    metrics().indexerProgress.set({ dataset: this.dataset }, this.ratio);
  }

  /** `n` more documents written. */
  written(n: number): void {
    this.done += n;
    const m = metrics();
    m.indexerDocuments.inc({ dataset: this.dataset }, n);
    m.indexerRate.set({ dataset: this.dataset }, this.done / Math.max(0.001, (Date.now() - this.started) / 1000));
    if (this.total && this.total > 0) m.indexerProgress.set({ dataset: this.dataset }, Math.min(1, this.done / this.total));
  }

  succeeded(now = Date.now()): void {
    const m = metrics();
    m.indexerProgress.set({ dataset: this.dataset }, 1);
    m.indexerRuns.inc({ dataset: this.dataset, outcome: 'ok' });
    m.indexerLastSuccess.set({ dataset: this.dataset }, Math.floor(now / 1000));
    m.indexerRunning.set({ dataset: this.dataset }, 0);
  }

  failed(): void {
    metrics().indexerRuns.inc({ dataset: this.dataset, outcome: 'failed' });
    metrics().indexerRunning.set({ dataset: this.dataset }, 0);
  }
}
