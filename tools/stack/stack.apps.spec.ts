import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSectionBlocks } from '../lookup/readme-script';
import { appEnv, NODE_ARGS, planStack, SERVICE_APPS } from './stack.apps';

describe('stack plan', () => {
  const built = (names: string[]) => (p: string) => names.some((n) => p.endsWith(`/dist/apps/${n}/src/main.js`));

  it('starts the built service apps on the ports after the gateway, the gateway last', () => {
    const plan = planStack('/r', 4000, undefined, built(['gateway', 'places', 'utils']));
    expect(plan.map((a) => [a.name, a.port, a.role])).toEqual([
      ['places', 4001, 'service'],
      ['utils', 4004, 'service'],
      ['gateway', 4000, 'gateway'],
    ]);
    expect(plan[0].main).toBe('/r/dist/apps/places/src/main.js');
  });

  it('restricts the services when asked and refuses to run without a built gateway', () => {
    expect(planStack('/r', 4000, ['places'], built(['gateway', 'places', 'business'])).map((a) => a.name)).toEqual(['places', 'gateway']);
    expect(() => planStack('/r', 4000, undefined, built(['places']))).toThrow(/npm run build/);
  });

  it('gives every app the distributed profile and its own port, on loopback unless told otherwise', () => {
    const [places] = planStack('/r', 4000, ['places'], built(['gateway', 'places']));
    expect(appEnv({ NATS_URL: 'nats://x:1', PORT: '9' }, places)).toEqual({ HOST: '127.0.0.1', NATS_URL: 'nats://x:1', PORT: '4001', PROFILE: 'distributed' });
    expect(appEnv({ HOST: '0.0.0.0' }, places)['HOST']).toBe('0.0.0.0');
  });
});

describe("the README's distributed stack by hand", () => {
  // The stack's own list of apps is the truth: a block that starts fewer (a reviewer's walk had no
  // business, intl, utils or indexer) gives a gateway whose other routes answer 503.
  const block = readmeSectionBlocks(readFileSync(join(__dirname, '../../README.md'), 'utf8'), 'Running the distributed stack')[0]!;

  it('starts every app the stack starts, with the stack node options, on distinct ports, with one PROFILE and DATABASE_URL', () => {
    for (const app of [...SERVICE_APPS, 'gateway']) {
      const line = block.find((l) => l.includes(`dist/apps/${app}/src/main.js`));
      expect({ app, line: line ?? null }).toEqual({ app, line: expect.stringContaining(['node', ...(NODE_ARGS[app] ?? [])].join(' ')) });
    }
    const ports = block.flatMap((l) => [...l.matchAll(/\bPORT=(\d+)/g)].map((m) => m[1]));
    expect(new Set(ports).size).toBe(SERVICE_APPS.length + 1);
    // Set once for every later line (and the `npx lookup` commands of the next block), not per line.
    expect(block.filter((l) => /PROFILE=|DATABASE_URL=/.test(l))).toEqual([expect.stringMatching(/^export PROFILE=distributed DATABASE_URL=\S+/)]);
  });

  it('seeds no well-known key and keeps the gateway on this machine (a reviewer ran it literally: dev-key on 0.0.0.0)', () => {
    expect(block.filter((l) => /SEED_API_KEY/.test(l))).toEqual([]);
    expect(block.find((l) => l.includes('dist/apps/gateway/src/main.js'))).toMatch(/\bHOST=127\.0\.0\.1\b/);
  });
});
