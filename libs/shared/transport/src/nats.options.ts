/**
 * Connection settings shared by the gateway's client and the services: reconnect forever, with
 * short waits (a restarted NATS or a node of the cluster is back within a second or two), and
 * buffer what is published meanwhile. Pings find a peer that vanished without closing the socket.
 */
export const NATS_CONNECTION_OPTIONS = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 250,
  reconnectJitter: 100,
  pingInterval: 10000,
  maxPingOut: 2,
  // 8 MiB of requests published while disconnected (nats.js buffers them and sends on reconnect).
  reconnectBufSize: 8 * 1024 * 1024,
  // nats.js otherwise captures the caller's stack (an Error) on every request, twice, for a
  // timeout's message: a third of a request's CPU (bench: 127 -> 79 and 82 -> 54 µs per echo
  // round trip, client and responder). Our timeouts name the subject and are DomainErrors anyway.
  noAsyncTraces: true,
} as const;

/** NATS_URL may list several servers of a cluster, comma-separated. */
export function natsServers(url: string): string[] {
  return url.split(',').map((u) => u.trim()).filter(Boolean);
}
