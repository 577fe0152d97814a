import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (where nx.json is), from source or from dist alike. */
export function projectRoot(from = __dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`nx.json not found above ${from}`);
    dir = up;
  }
}
