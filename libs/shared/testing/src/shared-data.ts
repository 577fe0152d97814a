import { resolve } from 'node:path';

/** `../shared/data` beside the project, read in place, never copied. */
export const SHARED_DATA_DIR = resolve(__dirname, '../../../../../shared/data');

export function sharedData(...parts: string[]): string {
  return resolve(SHARED_DATA_DIR, ...parts);
}
