import { Logger } from '@nestjs/common';
import { DomainError, ErrorEnvelope, isErrorEnvelope } from '@lookup/contracts';
import { isObservable, lastValueFrom, Observable } from 'rxjs';
import { ReplyEnvelope } from './transport.types';
import { unavailableError } from './unavailable';

const logger = new Logger('Reply');

type NestHandler = (data: unknown, ctx?: unknown) => Promise<Observable<unknown> | unknown> | unknown;

/**
 * Runs a Nest message handler (already wrapped with its pipes and RpcErrorFilter) and turns
 * its outcome into a reply envelope. Anything that is not our envelope becomes an internal
 * error here, so no transport ever has to guess.
 */
export async function runHandler(handler: NestHandler, data: unknown, ctx?: unknown): Promise<ReplyEnvelope> {
  try {
    let result = await handler(data, ctx);
    if (isObservable(result)) result = await lastValueFrom(result, { defaultValue: null });
    return { ok: true, data: result ?? null };
  } catch (err) {
    return { ok: false, error: asEnvelope(err) };
  }
}

export function asEnvelope(err: unknown): ErrorEnvelope {
  if (err instanceof DomainError) return err.toEnvelope();
  if (isErrorEnvelope(err)) return err;
  // A part that is down, even when the error escaped the handler's filter: 503/504, not 500,
  // logged as the filter logs it (a 503 nobody logged cannot be traced to its cause).
  const down = unavailableError(err);
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (down) logger.warn(`${down.type} (outside the handler's filter): ${text}`);
  else logger.error(err instanceof Error ? err.stack ?? text : text);
  return (down ?? DomainError.internal()).toEnvelope();
}

/** Client side: unwraps a reply or throws the DomainError it carries. */
export function unwrapReply<T>(reply: ReplyEnvelope): T {
  if (reply && typeof reply === 'object' && 'ok' in reply) {
    if (reply.ok) return reply.data as T;
    if (isErrorEnvelope(reply.error)) throw DomainError.fromEnvelope(reply.error);
  }
  throw DomainError.internal('The service sent a malformed reply.');
}
