import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { DomainError, ErrorEnvelope, ErrorTypes, toErrorBody } from '@lookup/contracts';
import { UNAVAILABLE_RETRY_AFTER_S, unavailableError } from '@lookup/shared/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUPPORTED_BODY_TYPES } from './body-parsing';
import { redactText } from './redact';
import { methodsOf } from './route-methods';

/** Fastify's own wording where it misleads or names internals. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body is shorter or longer than its Content-Length.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: `The Content-Type is not read: send the parameters as ${SUPPORTED_BODY_TYPES}.`,
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty.',
};

/**
 * Renders every failure as the compat error body. Client errors are 400 (the PHP SDK maps
 * types only on 400), unknown ids 404, server faults 5xx with no internals in the body. A part
 * that is down (NATS, a service, the database, the search engine) is a 503 (504 for a deadline)
 * with `Retry-After` and `swiftyper-should-retry: true`, which both official SDKs obey; never a
 * 500, which the SDKs report as an unknown error.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const wrongMethod = this.wrongMethod(exception, http.getRequest?.<FastifyRequest>());
    if (wrongMethod) reply.header('Allow', wrongMethod.allow.join(', '));
    const env = wrongMethod?.env ?? this.toEnvelope(exception);
    const retryAfter = env.retryAfter ?? (env.status === 503 || env.status === 504 ? UNAVAILABLE_RETRY_AFTER_S : undefined);
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    reply.header('swiftyper-should-retry', env.status >= 500 || env.type === ErrorTypes.rateLimit ? 'true' : 'false');
    void reply.status(env.status).send(toErrorBody(env));
  }

  /**
   * A path the router knows, asked with another method (`GET /v1/places/query`: the API is POST):
   * 405 with `Allow`, saying which method to use, instead of "Unknown endpoint.".
   */
  private wrongMethod(exception: unknown, req: FastifyRequest | undefined): { env: ErrorEnvelope; allow: string[] } | null {
    if (!req || !(exception instanceof HttpException) || exception.getStatus() !== 404) return null;
    const path = (req.url ?? '').split('?')[0]!;
    const methods = methodsOf(req.server, path);
    if (!methods.length || methods.includes(req.method)) return null;
    return {
      allow: methods,
      env: { status: 405, type: ErrorTypes.invalidRequest, message: `${req.method} is not supported on ${path}: send the request as ${methods.join(' or ')}.`, param: null },
    };
  }

  toEnvelope(exception: unknown): ErrorEnvelope {
    if (exception instanceof DomainError) {
      if (exception.status >= 500) this.logger.warn(`${exception.type}: ${exception.message}`);
      return exception.toEnvelope();
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return { status: 404, type: ErrorTypes.invalidRequest, message: 'Unknown endpoint.', param: null };
      if (status < 500) return { status: 400, type: ErrorTypes.invalidRequest, message: redactText(exception.message), param: null };
    }
    const fastifyStatus = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      // Body parser refusals: malformed JSON, too large, cut short, unsupported media type.
      const code = (exception as { code?: unknown }).code;
      const message =
        fastifyStatus === 413
          ? 'The request body is too large.'
          : (FASTIFY_MESSAGES[String(code)] ?? redactText((exception as Error).message));
      return { status: 400, type: ErrorTypes.invalidRequest, message, param: null };
    }
    const down = unavailableError(exception);
    if (down) {
      this.logger.warn(`${down.type}: ${redactText(exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception))}`);
      return down.toEnvelope();
    }
    this.logger.error(redactText(exception instanceof Error ? exception.stack ?? exception.message : String(exception)));
    return DomainError.internal().toEnvelope();
  }
}
