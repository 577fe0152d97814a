/**
 * Error types the official clients understand (see compat-notes). The Node SDK picks its
 * exception class from `type`, the PHP SDK from `code`, so both carry the same value.
 */
export const ErrorTypes = {
  missing: 'missing',
  invalidApiKey: 'invalid_api_key',
  restricted: 'restricted',
  overQueryLimit: 'over_query_limit',
  rateLimit: 'rate_limit',
  missingParameter: 'missing_parameter',
  invalidParameter: 'invalid_parameter',
  unexpectedParameter: 'unexpected_parameter',
  invalidRequest: 'invalid_request',
  // Server faults: never caused by the caller, never 4xx.
  apiError: 'api_error',
  timeout: 'timeout',
  serviceUnavailable: 'service_unavailable',
} as const;

export type ErrorType = (typeof ErrorTypes)[keyof typeof ErrorTypes];

/** What crosses the transport when a handler fails, and what the gateway renders. */
export interface ErrorEnvelope {
  status: number;
  type: ErrorType;
  message: string;
  param: string | null;
  /** Seconds, for quota and rate-limit errors. */
  retryAfter?: number;
}

/** The compat error body: `{"error": {"type", "code", "message", "param"}}`. */
export interface ErrorBody {
  error: { type: ErrorType; code: ErrorType; message: string; param: string | null };
}

export function toErrorBody(e: ErrorEnvelope): ErrorBody {
  return { error: { type: e.type, code: e.type, message: e.message, param: e.param } };
}

const DEFAULT_STATUS: Record<ErrorType, number> = {
  missing: 400,
  invalid_api_key: 400,
  restricted: 400,
  over_query_limit: 400,
  rate_limit: 400,
  missing_parameter: 400,
  invalid_parameter: 400,
  unexpected_parameter: 400,
  invalid_request: 400,
  api_error: 500,
  timeout: 504,
  service_unavailable: 503,
};

/**
 * The one error type services throw. It is plain data so that it survives any transport;
 * HTTP status is decided here, once, not at call sites.
 */
export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly param: string | null = null,
    status?: number,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'DomainError';
    this.status = status ?? DEFAULT_STATUS[type];
  }

  toEnvelope(): ErrorEnvelope {
    const env: ErrorEnvelope = { status: this.status, type: this.type, message: this.message, param: this.param };
    if (this.retryAfter !== undefined) env.retryAfter = this.retryAfter;
    return env;
  }

  static fromEnvelope(e: ErrorEnvelope): DomainError {
    return new DomainError(e.type, e.message, e.param ?? null, e.status, e.retryAfter);
  }

  static missingParameter(param: string): DomainError {
    return new DomainError(ErrorTypes.missingParameter, `Missing required parameter: ${param}.`, param);
  }

  static invalidParameter(param: string, why: string): DomainError {
    return new DomainError(ErrorTypes.invalidParameter, `Invalid parameter ${param}: ${why}`, param);
  }

  static unexpectedParameter(param: string): DomainError {
    return new DomainError(ErrorTypes.unexpectedParameter, `Unexpected parameter: ${param}.`, param);
  }

  /** An unknown id: 404, which the PHP SDK turns into its invalid-request exception. */
  static notFound(param: string, what: string): DomainError {
    return new DomainError(ErrorTypes.invalidRequest, `${what} was not found.`, param, 404);
  }

  static internal(message = 'Internal server error.'): DomainError {
    return new DomainError(ErrorTypes.apiError, message, null, 500);
  }
}

export function isErrorEnvelope(v: unknown): v is ErrorEnvelope {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o['status'] === 'number' && typeof o['type'] === 'string' && typeof o['message'] === 'string';
}
