import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorBody, ErrorType, ErrorTypes, toErrorBody } from '@lookup/contracts';
import type { AppConfig } from '@lookup/shared/config';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A compat answer written straight to a socket, for refusals made before Fastify has a request.
 * Readable from any origin (the headers, Origin among them, were never parsed; the answer holds
 * nothing of the request): a browser page gets the message instead of a CORS failure.
 */
function rawAnswer(status: number, reason: string, type: ErrorType, message: string): string {
  const body = JSON.stringify(toErrorBody({ status, type, message, param: null }));
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Node's own refusals (a malformed request line, headers over 16 KB, a request not received
 * in time) in the compat shape instead of Fastify's. A timeout is 408: the client was too
 * slow, and nothing it sent was read as a request.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') answer = rawAnswer(408, 'Request Timeout', ErrorTypes.invalidRequest, 'The request was not received in time.');
  else if (err.code === 'HPE_HEADER_OVERFLOW') answer = rawAnswer(400, 'Bad Request', ErrorTypes.invalidRequest, 'The URL and headers together exceed 16 KB; send long parameters in the body.');
  else if (err.code === 'HPE_INVALID_EOF_STATE') answer = rawAnswer(400, 'Bad Request', ErrorTypes.invalidRequest, 'The request body is shorter than its Content-Length.');
  else answer = rawAnswer(400, 'Bad Request', ErrorTypes.invalidRequest, `The request is not valid HTTP/1.1 (${String(err.code ?? 'parse error')}).`);
  if (socket.writable) socket.write(answer);
  socket.destroy();
}

/** The path parameter a too-long path segment belongs to, by route family. */
const ID_PARAMS: [RegExp, string][] = [
  [/^\/v1\/places\//, 'place_id'],
  [/^\/v1\/business\//, 'business_id'],
  [/^\/v1\/utils\/ip\//, 'ip_address'],
];

/** Router refusals (a bad percent-encoding, an id over 100 characters): compat 400, never echoing the URL. */
export function frameworkErrors(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  let body: ErrorBody;
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const param = ID_PARAMS.find(([re]) => re.test(req.raw.url ?? ''))?.[1] ?? null;
    body = toErrorBody({ status: 400, type: ErrorTypes.invalidParameter, message: `${param ?? 'A path parameter'} is longer than ${MAX_PARAM_LENGTH} characters.`, param });
  } else {
    body = toErrorBody({ status: 400, type: ErrorTypes.invalidRequest, message: 'The URL has an invalid percent-encoding.', param: null });
  }
  void reply.status(400).header('swiftyper-should-retry', 'false').send(body);
}

export const MAX_PARAM_LENGTH = 100;

/** Fastify options for timeouts and Node's HTTP server: slow clients are cut off, others served. */
export function httpServerOptions(config: AppConfig): Record<string, unknown> {
  const http: ServerOptions = {
    headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS),
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: config.HTTP_TIMEOUT_CHECK_MS,
  };
  return {
    http,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    clientErrorHandler,
    frameworkErrors,
  };
}

/**
 * At most `max` open connections per client address: one host cannot hold every file
 * descriptor. The connection over the cap is told why and closed.
 */
export function capConnectionsPerIp(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const n = (open.get(ip) ?? 0) + 1;
    if (n > max) {
      socket.end(rawAnswer(400, 'Bad Request', ErrorTypes.rateLimit, `Too many open connections from one address (at most ${max}).`));
      socket.destroySoon?.();
      return;
    }
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}
