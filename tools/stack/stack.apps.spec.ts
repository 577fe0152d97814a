import { appEnv, planStack } from './stack.apps';

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
