import { Logger } from '@nestjs/common';
import { DomainError, ErrorEnvelope, isErrorEnvelope } from '@lookup/contracts';
import { isObservable, lastValueFrom, Observable } from 'rxjs';
import { ReplyEnvelope } from './transport.types';
import { unexpectedEnvelope } from './rpc-error.filter';

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
  // An error that escaped the handler's filter: answered and logged as the filter does (a part
  // that is down is a 503/504, not a 500; a 503 nobody logged cannot be traced to its cause).
  return unexpectedEnvelope(err, logger, " (outside the handler's filter)");
}

/** Client side: unwraps a reply or throws the DomainError it carries. */
export function unwrapReply<T>(reply: ReplyEnvelope): T {
  if (reply && typeof reply === 'object' && 'ok' in reply) {
    if (reply.ok) return reply.data as T;
    if (isErrorEnvelope(reply.error)) throw DomainError.fromEnvelope(reply.error);
  }
  throw DomainError.internal('The service sent a malformed reply.');
}
