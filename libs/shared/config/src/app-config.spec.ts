import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('reads optional settings without an initializer from the environment', () => {
    const c = loadConfig({ SEED_API_KEY: 'k1', DATABASE_SCHEMA: 's1', PORT: '8080', SAMPLE_DATA: 'false' });
    expect([c.SEED_API_KEY, c.DATABASE_SCHEMA, c.PORT, c.SAMPLE_DATA]).toEqual(['k1', 's1', 8080, false]);
  });
  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROFILE: 'cluster' })).toThrow(/PROFILE="cluster"/);
  });
});
