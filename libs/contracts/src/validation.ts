import { plainToInstance, Transform } from 'class-transformer';
import { ValidationError, validateSync, ValidationOptions, registerDecorator, ValidationArguments } from 'class-validator';
import { DomainError } from './errors';
import { COUNTRY_CODES, isCountryCode, shortValue } from './countries';
import { fastParse } from './fast-parse';
import { normaliseParams } from './request-shape';
import { memoiseValidationMetadata } from './validation-metadata';

memoiseValidationMetadata();

/** Parameters every request may carry that are not the operation's own. */
export const TRANSPORT_PARAMS = ['api_key', '__req'] as const;

/** DTOs made by parseRequest in this process (see `isParsedRequest`). */
const PARSED = new WeakSet<object>();

/**
 * True for a DTO that parseRequest made (and validated) in this process as an instance of `cls`.
 * The in-process transport hands such a payload to its handler as it is, so a standalone
 * request is validated once instead of at both ends (over NATS every payload is plain JSON and is
 * validated again).
 */
export function isParsedRequest(value: unknown, cls?: new () => object): boolean {
  return typeof value === 'object' && value !== null && PARSED.has(value) && (!cls || value.constructor === cls);
}

/**
 * Turns an untrusted plain object into a validated DTO, or throws the DomainError that names
 * the first offending parameter. Used at both ends: the gateway and the handler (in standalone
 * the handler takes the gateway's DTO as it is, see `isParsedRequest`).
 */
export function parseRequest<T extends object>(cls: new () => T, plain: unknown): T {
  if (plain === undefined || plain === null) plain = {};
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    throw new DomainError('invalid_request', 'The request body must be a set of named parameters.');
  }
  const params = normaliseParams(plain as Record<string, unknown>);
  const fast = fastParse(cls, params);
  if (fast) {
    PARSED.add(fast);
    return fast;
  }
  const instance = plainToInstance(cls, params, { exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw toDomainError(errors[0], params);
  PARSED.add(instance);
  return instance;
}

/**
 * Which failed check speaks for a parameter: presence first, then its type, then the rest in
 * the order the decorators registered (bottom-up). A type check outranks a length or format
 * check, so an object sent as `query` is "must be text", not "longer than 200 characters".
 */
const CHECK_PRIORITY = ['whitelistValidation', 'required', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray'];

function firstMessage(constraints: Record<string, string>): string | undefined {
  const name = CHECK_PRIORITY.find((c) => c in constraints) ?? Object.keys(constraints)[0];
  return name === undefined ? undefined : constraints[name];
}

function toDomainError(err: ValidationError, plain: Record<string, unknown>, prefix = ''): DomainError {
  const param = prefix + err.property;
  if (err.children && err.children.length > 0) return toDomainError(err.children[0], plain, `${param}.`);
  const constraints = err.constraints ?? {};
  if ('whitelistValidation' in constraints) return DomainError.unexpectedParameter(param);
  // A failing parameter that was not sent at all can only be a required one.
  const raw = prefix ? undefined : plain[err.property];
  if (!prefix && (raw === undefined || raw === null || raw === '')) return DomainError.missingParameter(param);
  const first = firstMessage(constraints) ?? 'the value is not valid';
  return DomainError.invalidParameter(param, first.endsWith('.') ? first : `${first}.`);
}

/** Required and non-empty: reported as `missing_parameter` when absent. */
export function Required(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'required',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} is required`, ...options },
      validator: { validate: (v: unknown) => v !== undefined && v !== null && v !== '' },
    });
  };
}

/** Upper-cases and trims a string; leaves other types for the validators to refuse. */
export const UpperTrim = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));

/** A single available country code. */
export function IsCountry(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCountry',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (a: ValidationArguments) =>
          Array.isArray(a.value) && a.value.length > 1
            ? `one country is expected, not ${a.value.length} (one of ${COUNTRY_CODES.join(', ')})`
            : `${shortValue(typeof a.value === 'string' && a.value ? a.value : JSON.stringify(a.value))} is not an available country code (one of ${COUNTRY_CODES.join(', ')})`,
        ...options,
      },
      validator: { validate: (v: unknown) => typeof v === 'string' && isCountryCode(v) },
    });
  };
}
