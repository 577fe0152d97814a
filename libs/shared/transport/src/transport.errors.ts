import { DomainError, ErrorTypes } from '@lookup/contracts';
import { UNAVAILABLE_RETRY_AFTER_S } from './unavailable';

/** The service did not answer in time: 504, worth a retry. */
export function transportTimeout(subject: string, timeoutMs: number): DomainError {
  return new DomainError(
    ErrorTypes.timeout,
    `The ${subject.split('.')[0]} service did not answer within ${timeoutMs} ms.`,
    null,
    504,
    UNAVAILABLE_RETRY_AFTER_S,
  );
}

/** Nobody listens on the subject (service down or not deployed): 503. */
export function noResponder(subject: string): DomainError {
  return new DomainError(
    ErrorTypes.serviceUnavailable,
    `The ${subject.split('.')[0]} service is not available.`,
    null,
    503,
    UNAVAILABLE_RETRY_AFTER_S,
  );
}
