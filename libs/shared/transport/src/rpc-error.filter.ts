import { ArgumentsHost, Catch, HttpException, Logger, RpcExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorEnvelope, ErrorType, ErrorTypes } from '@lookup/contracts';
import { Observable, throwError } from 'rxjs';
import { unavailableError } from './unavailable';

const BY_STATUS: Record<number, ErrorType> = { 400: ErrorTypes.invalidRequest, 404: ErrorTypes.invalidRequest };

/**
 * Nest's own RPC filter turns any non-RpcException into a bare "Internal server error". This
 * one keeps our DomainErrors intact, maps Nest's HTTP exceptions by status (a
 * NotFoundException stays a 404), answers a part that is down (database, search engine) with a
 * 503/504 the caller may retry, and hides everything else behind a logged 500.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => this.toEnvelope(exception));
  }

  toEnvelope(exception: unknown): ErrorEnvelope {
    if (exception instanceof DomainError) return exception.toEnvelope();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) {
        return { status: status === 404 ? 404 : 400, type: BY_STATUS[status] ?? ErrorTypes.invalidRequest, message: exception.message, param: null };
      }
    }
    return unexpectedEnvelope(exception, this.logger);
  }
}

/**
 * The answer to an error that is none of ours: a part that is down is a 503/504 the caller may
 * retry, logged as a warning with its cause; anything else a 500, logged with its stack.
 * `where` says where it was caught, when not in the filter.
 */
export function unexpectedEnvelope(exception: unknown, logger: Pick<Logger, 'warn' | 'error'>, where = ''): ErrorEnvelope {
  const down = unavailableError(exception);
  if (down) {
    logger.warn(`${down.type}${where}: ${exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception)}`);
    return down.toEnvelope();
  }
  logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
  return DomainError.internal().toEnvelope();
}
