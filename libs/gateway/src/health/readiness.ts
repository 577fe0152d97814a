import type { TransportClient } from '@lookup/shared/transport';

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

/**
 * How long the gateway stays ready with its NATS connection down. A restart of NATS (or the
 * loss of one node of the cluster, when the client moves to another) is shorter: requests wait
 * for the connection meanwhile, so taking the gateway out of the load balancer would only turn
 * waits into connection errors. Longer than this, the gateway is cut off and says so.
 */
export const TRANSPORT_DOWN_READY_MS = 10000;

/** The transport's connection as a critical check, for a transport that has one (NATS). */
export function transportConnectionCheck(transport: TransportClient, graceMs = TRANSPORT_DOWN_READY_MS): ReadinessCheck | null {
  if (!transport.connectionState) return null;
  return {
    name: 'nats',
    critical: true,
    check: async () => {
      const s = transport.connectionState!();
      if (!s.connected && s.downForMs > graceMs) throw new Error(`NATS connection down for ${s.downForMs} ms`);
    },
  };
}
