import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Marks keys we generated: their random part may be shown in part, a chosen key's may not. */
export const GENERATED_KEY_MARK = 'lk_';
const RANDOM_LENGTH = 32;
/** Characters of the random part a listing shows: 62^4 of 62^32 combinations, nothing to guess with. */
const SHOWN_RANDOM = 4;

/** A new key: `lk_` + 32 base62 characters (~190 bits), drawn without modulo bias. */
export function generateKey(): string {
  let out = '';
  while (out.length < RANDOM_LENGTH) {
    for (const b of randomBytes(RANDOM_LENGTH * 2)) {
      // 248 = 4 * 62: bytes above it would make the first characters likelier.
      if (b < 248 && out.length < RANDOM_LENGTH) out += BASE62[b % 62];
    }
  }
  return GENERATED_KEY_MARK + out;
}

/**
 * What a listing may show of a key: for generated keys the mark and the first characters of
 * the random part; for keys chosen by a person (SEED_API_KEY, `create --key`) nothing, since
 * any part of a chosen word helps guess the rest.
 */
export function displayPrefix(key: string, generated: boolean): string {
  return generated ? key.slice(0, GENERATED_KEY_MARK.length + SHOWN_RANDOM) : '';
}
