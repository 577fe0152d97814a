import { DomainError } from './errors';

/**
 * How deep a parameter may nest (`context[0]`, a JSON object in a JSON body). The deepest
 * shape any operation reads is a list of objects (`native_strings` items), so 8 leaves room;
 * the bound exists because class-transformer recurses without one and overflows the stack on
 * a few thousand levels, which fit easily in a 1 MiB body.
 */
export const MAX_PARAM_DEPTH = 8;

// A UTF-16 code unit of a surrogate pair without its other half: valid in a JS string and in
// JSON (`"\ud800"`), but no text, and some validators (e-mail) throw a URIError on it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one pass over untrusted parameters before any DTO sees them: an empty top-level value
 * is an absent parameter (the widget sends every form field, empty ones as `postal_code=`),
 * and shapes no operation can read are refused naming the parameter, instead of reaching
 * code that would fail on them.
 */
export function normaliseParams(plain: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plain)) {
    if (value === '') continue;
    // class-transformer skips `__proto__` silently and fails on an object's `constructor`: say
    // instead that no operation has such a parameter.
    if (PROTOTYPE_KEYS.has(name)) throw DomainError.unexpectedParameter(name);
    checkValue(name, value, name, 1);
    // defineProperty: a `__proto__` key stays a plain (refusable) parameter, never a prototype.
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function checkValue(param: string, value: unknown, key: string, depth: number): void {
  if (PROTOTYPE_KEYS.has(key)) throw DomainError.invalidParameter(param, `a key named ${key} is not accepted.`);
  if (LONE_SURROGATE.test(key)) throw DomainError.invalidParameter(param, 'the parameter name is not valid Unicode text.');
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw DomainError.invalidParameter(param, 'the value is not valid Unicode text (a lone surrogate).');
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_PARAM_DEPTH) throw DomainError.invalidParameter(param, `the value nests deeper than ${MAX_PARAM_DEPTH} levels.`);
  for (const [k, v] of Object.entries(value)) checkValue(param, v, k, depth + 1);
}
