import { Transform } from 'class-transformer';
import { isIP, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { COUNTRY_CODES, CountryCode, isCountryCode, shortValue } from '../countries';

/**
 * Parameter shapes shared by the place searches (compat-notes): arrays arrive from `qs` as
 * `context[0]=..` (an array, or an object with index keys past 20 items), as JSON arrays or
 * as comma-separated text. Every transform here is idempotent, because the handler validates
 * the DTO the gateway already transformed.
 */
export function toList(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'object') items = Object.values(value as Record<string, unknown>);
  else if (typeof value === 'string') items = value.split(',');
  else return value;
  if (!items.every((i) => typeof i === 'string')) return value;
  const list = (items as string[]).map((i) => i.trim()).filter((i) => i !== '');
  // `country[0]=` is as empty as `country=`: an absent parameter.
  return list.length > 0 ? list : undefined;
}

const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export const ToList = (upper = false) =>
  Transform(({ value }) => {
    const list = toList(value);
    // A list with anything but text in it (`country[1][x]=y`, JSON `[1]`) is left for the validators to refuse.
    return upper && isTextList(list) ? list.map((s) => s.toUpperCase()) : list;
  });

/** `"7"` -> 7, `"49.5"` -> 49.5; anything else is left for the validators to refuse. */
export const ToNumber = () =>
  Transform(({ value }) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value));

/** A whole non-negative number sent in a JSON body is read as its text (a postal code, a house number, an IČO: `{"query": 56802}`). */
export const ToText = () => Transform(({ value }) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : value));

export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

function decorator(name: string, message: (a: ValidationArguments) => string, validate: (v: unknown) => boolean, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({ name, target: target.constructor, propertyName: propertyName as string, options: { message, ...options }, validator: { validate } });
  };
}

/** What is wrong with a `country` value, naming the code at fault: `XX is not an available country code (...)`. */
function countryListProblem(v: unknown): string {
  const available = `available: ${COUNTRY_CODES.join(', ')}; several separated by commas`;
  if (!Array.isArray(v) || v.length === 0) return `country must be an available country code (${available})`;
  const bad = v.filter((c) => typeof c !== 'string' || !isCountryCode(c));
  if (bad.length) {
    // A few of them, each cut short: the message is not a copy of whatever was sent.
    const named = bad.slice(0, 3).map((c) => shortValue(typeof c === 'string' ? c || '(empty)' : JSON.stringify(c)));
    const more = bad.length > 3 ? ` and ${bad.length - 3} more` : '';
    return `${named.join(', ')}${more} ${bad.length === 1 ? 'is not an available country code' : 'are not available country codes'} (${available})`;
  }
  return `country lists ${v.length} codes, at most ${COUNTRY_CODES.length} (${available})`;
}

/** One or several available country codes. */
export const IsCountryList = (options?: ValidationOptions) =>
  decorator(
    'isCountryList',
    (a) => countryListProblem(a.value),
    (v) => Array.isArray(v) && v.length > 0 && v.length <= COUNTRY_CODES.length && v.every((c) => typeof c === 'string' && isCountryCode(c)),
    options,
  );

export const IsPlaceIdList = (pattern: RegExp, options?: ValidationOptions) =>
  decorator(
    'isPlaceIdList',
    (a) => `${a.property} must be a list of up to 20 place_id values of regions, counties or municipalities`,
    (v) => Array.isArray(v) && v.length > 0 && v.length <= 20 && v.every((c) => typeof c === 'string' && pattern.test(c)),
    options,
  );

/** `"49.19,16.61"`: latitude then longitude, decimal degrees. */
export function parseLatLng(text: string): { lat: number; lng: number } | null {
  const m = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

export const IsLatLngText = (options?: ValidationOptions) =>
  decorator('isLatLngText', (a) => `${a.property} must be "latitude,longitude" in decimal degrees`, (v) => typeof v === 'string' && parseLatLng(v) !== null, options);

/** The widget sends `true`; an IP address names the location to use instead of the caller's. */
export const IsViaIp = (options?: ValidationOptions) =>
  decorator(
    'isViaIp',
    (a) => `${a.property} must be true, false or an IP address`,
    (v) => v === true || v === false || (typeof v === 'string' && (['true', 'false', '1', '0'].includes(v.toLowerCase()) || isIP(v))),
    options,
  );

export type CountryList = CountryCode[];
