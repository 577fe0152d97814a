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
  it('takes one NATS server or a comma-separated cluster, and names NATS_URL when it is not one', () => {
    expect(loadConfig({ NATS_URL: 'nats://nats-0:4222, nats://nats-1:4222,tls://nats-2:4222' }).NATS_URL).toBe('nats://nats-0:4222, nats://nats-1:4222,tls://nats-2:4222');
    expect(() => loadConfig({ NATS_URL: 'http://nats:4222' })).toThrow(/NATS_URL/);
    expect(() => loadConfig({ NATS_URL: 'nats://a:4222,,nats://b:4222' })).toThrow(/NATS_URL/);
  });
  it('takes one OpenSearch node or a comma-separated cluster', () => {
    expect(loadConfig({ OPENSEARCH_URL: 'http://os-0:9200,http://os-1:9200' }).OPENSEARCH_URL).toBe('http://os-0:9200,http://os-1:9200');
    expect(() => loadConfig({ OPENSEARCH_URL: 'os-0:9200' })).toThrow(/OPENSEARCH_URL/);
  });
  it('listens on loopback in standalone and on every interface in distributed unless HOST is set', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ PROFILE: 'distributed' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});
