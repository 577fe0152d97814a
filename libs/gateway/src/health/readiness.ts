export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * Only critical checks decide readiness. The services behind the gateway are reported but
   * not critical: one service down must not take every gateway out of the load balancer (its
   * routes answer 503 quickly instead of clients getting connection errors).
   */
  critical: boolean;
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
        if (c.critical) out.status = 'unavailable';
        out.checks[c.name] = { status: 'failed', error: (err as Error).message, ms: Date.now() - t0 };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return out;
}
