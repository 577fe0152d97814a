import { RawJson } from '@lookup/shared/transport';

/**
 * The gateway's reply serializer (Fastify's default for routes without a response schema is
 * `JSON.stringify`, and none of ours has one): an answer that is still the service's JSON text
 * (RawJson, over NATS) is the body as it is, anything else is encoded as before.
 */
export function serializeReply(payload: unknown): string | Buffer {
  if (payload instanceof RawJson) return Buffer.from(payload.bytes.buffer, payload.bytes.byteOffset, payload.bytes.byteLength);
  return JSON.stringify(payload);
}
