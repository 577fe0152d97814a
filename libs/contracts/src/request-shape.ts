import { DomainError } from './errors';

/**
 * How deep a parameter may nest (`context[0]`, a JSON object in a JSON body). The deepest
 * shape any operation reads is a list of objects (`native_strings` items), so 8 leaves room;
 * the bound exists because class-transformer recurses without one and overflows the stack on
 * a few thousand levels, which fit easily in a 1 MiB body.
 */
export const MAX_PARAM_DEPTH = 8;

/**
 * Parameters whose value is a JSON document (fbt's collection, an fbt translation file): its
 * text, or in a JSON body the document itself. A form body (or query string) cannot carry the
 * document as fields: every value arrives as text, and a client's encoder drops nulls and empty
 * lists (PHP's http_build_query; `m: []`, `[null, {...}]` renumbered), so what arrived would be
 * another document. Such a value sent as fields is refused naming the parameter (gateway
 * body-parsing), not stored altered.
 */
export const JSON_TEXT_PARAMS: ReadonlySet<string> = new Set(['native_strings', 'translations']);

// A UTF-16 code unit of a surrogate pair without its other half: valid in a JS string and in
// JSON (`"\ud800"`), but no text, and some validators (e-mail) throw a URIError on it.
// Tested first: most text has no surrogate at all, and this test is cheaper than the lookarounds.
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one pass over untrusted parameters before any DTO sees them: an empty top-level value
 * is an absent parameter (the widget sends every form field, empty ones as `postal_code=`),
 * and shapes no operation can read are refused naming the parameter, instead of reaching
 * code that would fail on them.
 */
export function normaliseParams(plain: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(plain)) {
    const value = plain[name];
    if (value === '') continue;
    // class-transformer skips `__proto__` silently and fails on an object's `constructor`: say
    // instead that no operation has such a parameter.
    if (PROTOTYPE_KEYS.has(name)) throw DomainError.unexpectedParameter(name);
    checkValue(name, value, name, 1);
    // (`__proto__` was refused above, so an assignment makes a plain own property.)
    out[name] = value;
  }
  return out;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function checkValue(param: string, value: unknown, key: string, depth: number): void {
  if (PROTOTYPE_KEYS.has(key)) throw DomainError.invalidParameter(param, `a key named ${key} is not accepted.`);
  if (SURROGATE.test(key) && LONE_SURROGATE.test(key)) throw DomainError.invalidParameter(param, 'the parameter name is not valid Unicode text.');
  if (typeof value === 'string') {
    if (SURROGATE.test(value) && LONE_SURROGATE.test(value)) throw DomainError.invalidParameter(param, 'the value is not valid Unicode text (a lone surrogate).');
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_PARAM_DEPTH) throw DomainError.invalidParameter(param, `the value nests deeper than ${MAX_PARAM_DEPTH} levels.`);
  for (const [k, v] of Object.entries(value)) checkValue(param, v, k, depth + 1);
}
