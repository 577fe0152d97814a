import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { Observable, tap } from 'rxjs';
import { metrics } from './metrics.registry';

/** The message pattern a handler serves (our patterns are plain subject strings). */
export function subjectOf(handler: object): string {
  const patterns: unknown = Reflect.getMetadata(PATTERN_METADATA, handler);
  const first = Array.isArray(patterns) ? patterns[0] : patterns;
  return typeof first === 'string' ? first : 'unknown';
}

/** Client errors (bad parameters, unknown ids) are the caller's; anything else is ours. */
export function rpcOutcomeOf(err: unknown): 'client_error' | 'server_error' {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status < 500 ? 'client_error' : 'server_error';
}

/** Rate, latency and failures of a service's message handlers, per subject. */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'rpc') return next.handle();
    const subject = subjectOf(ctx.getHandler());
    const m = metrics();
    const end = m.rpcDuration.startTimer({ subject });
    return next.handle().pipe(
      tap({
        complete: () => {
          end();
          m.rpcHandled.inc({ subject, outcome: 'ok' });
        },
        error: (err: unknown) => {
          end();
          m.rpcHandled.inc({ subject, outcome: rpcOutcomeOf(err) });
        },
      }),
    );
  }
}
