export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessResult {
  status: 'ok' | 'unavailable';
  checks: Record<string, { status: 'ok' | 'failed'; error?: string; ms: number }>;
}

const CHECK_TIMEOUT_MS = 2000;

export async function runChecks(checks: ReadinessCheck[]): Promise<ReadinessResult> {
  const out: ReadinessResult = { status: 'ok', checks: {} };
  await Promise.all(
    checks.map(async (c) => {
      const t0 = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.check(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS))),
        ]);
        out.checks[c.name] = { status: 'ok', ms: Date.now() - t0 };
      } catch (err) {
        out.status = 'unavailable';
        out.checks[c.name] = { status: 'failed', error: (err as Error).message, ms: Date.now() - t0 };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return out;
}
