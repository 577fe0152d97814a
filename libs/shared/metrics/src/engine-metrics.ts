import { metrics } from './metrics.registry';

/**
 * Hook for store adapters: `await timeEngine('opensearch', 'search', () => client.search(...))`.
 * Engine and operation must be constants (they become label values).
 */
export async function timeEngine<T>(engine: string, operation: string, call: () => Promise<T>): Promise<T> {
  const end = metrics().engineDuration.startTimer({ engine, operation });
  try {
    const out = await call();
    end({ outcome: 'ok' });
    return out;
  } catch (err) {
    end({ outcome: 'error' });
    throw err;
  }
}

/** The synchronous twin, for better-sqlite3 calls. */
export function timeEngineSync<T>(engine: string, operation: string, call: () => T): T {
  const end = metrics().engineDuration.startTimer({ engine, operation });
  try {
    const out = call();
    end({ outcome: 'ok' });
    return out;
  } catch (err) {
    end({ outcome: 'error' });
    throw err;
  }
}

/** A call timed elsewhere (a search thread, whose own registry nobody scrapes), recorded here. */
export function observeEngine(engine: string, operation: string, outcome: 'ok' | 'error', seconds: number): void {
  metrics().engineDuration.observe({ engine, operation, outcome }, seconds);
}
