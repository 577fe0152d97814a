import Fastify from 'fastify';
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
  it('refuses a PROFILE other than standalone or distributed, also where the app fixes its own', () => {
    for (const [env, fixed] of [[{ PROFILE: 'foo' }, {}], [{ PROFILE: 'foo' }, { PROFILE: 'standalone' }], [{ PROFILE: 'Standalone' }, { PROFILE: 'standalone' }], [{ PROFILE: 'foo' }, { PROFILE: 'distributed' }]]) {
      expect(() => loadConfig(env, fixed)).toThrow(/^Invalid configuration:\n {2}PROFILE="(foo|Standalone)": PROFILE must be one of the following values: standalone, distributed$/);
    }
    expect(loadConfig({ PROFILE: 'distributed' }, { PROFILE: 'distributed' }).PROFILE).toBe('distributed');
    expect(loadConfig({ PROFILE: 'standalone' }).PROFILE).toBe('standalone');
    // As before: the app's own profile wins over a valid one from the environment.
    expect(loadConfig({ PROFILE: 'distributed' }, { PROFILE: 'standalone' }).PROFILE).toBe('standalone');
  });
  it('reads every boolean setting from true/false, 1/0, yes/no, on/off in any case, and refuses any other text', () => {
    const BOOLEANS = ['SAMPLE_DATA', 'DEMO_PAGE', 'EMAIL_SMTP_PROBE', 'SCHEDULER_ENABLED'] as const;
    for (const name of BOOLEANS) {
      for (const word of ['true', 'TRUE', 'True', '1', 'yes', 'YES', 'on', 'On', ' true ']) expect([name, word, loadConfig({ [name]: word })[name]]).toEqual([name, word, true]);
      for (const word of ['false', 'FALSE', 'False', '0', 'no', 'No', 'off', 'OFF']) expect([name, word, loadConfig({ [name]: word })[name]]).toEqual([name, word, false]);
      for (const word of ['nope', 'maybe', '2', 'tru', 'y', '-1', 'enabled']) {
        expect(() => loadConfig({ [name]: word })).toThrow(new ConfigError(`Invalid configuration:\n  ${name}="${word}": ${name} must be true or false (also 1/0, yes/no, on/off)`));
      }
      // Overrides (tests, apps) pass booleans.
      expect(loadConfig({}, { [name]: false })[name]).toBe(false);
    }
    // Unset or empty: the default.
    expect([loadConfig({ SAMPLE_DATA: '' }).SAMPLE_DATA, loadConfig({}).EMAIL_SMTP_PROBE, loadConfig({}).SCHEDULER_ENABLED, loadConfig({ DEMO_PAGE: '' }).DEMO_PAGE]).toEqual([true, true, false, undefined]);
  });
  it('takes TRUST_PROXY as true, false, a hop count or proxy addresses, and names the variable and the forms otherwise', () => {
    const forms = "TRUST_PROXY must be true, false, a hop count (0, 1, 2, ...) or the proxies' addresses: IPs or CIDR blocks, comma-separated (10.0.0.0/8,127.0.0.1)";
    for (const bad of ['maybe', 'yes', '10.0.0.0/33', '10.0.0.0/0', '::1/129', '10.0.0.1,', '10.0.0.1,,10.0.0.2', '10.0.0.0/8x', '1.2.3', '-1', '1.5', 'loopback', '10.0.0.0/255.0.0.0']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(new ConfigError(`Invalid configuration:\n  TRUST_PROXY=${JSON.stringify(bad)}: ${forms}`));
    }
    const read = (v: string) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;
    expect(['true', 'TRUE', ' false ', '0', '1', '12'].map(read)).toEqual(['true', 'true', 'false', '0', '1', '12']);
    const lists: [string, string][] = [
      ['127.0.0.1', '127.0.0.1'],
      ['10.0.0.0/8, 192.168.1.1', '10.0.0.0/8,192.168.1.1'],
      ['::1', '::1'],
      ['fe80::/10,::ffff:10.0.0.1', 'fe80::/10,::ffff:10.0.0.1'],
      ['10.0.0.0/32', '10.0.0.0/32'],
    ];
    for (const [given, kept] of lists) {
      expect(read(given)).toBe(kept);
      // What the gateway hands Fastify (proxy-addr) for an address list: it starts with it.
      expect(() => Fastify({ trustProxy: kept })).not.toThrow();
    }
    expect(loadConfig({}).TRUST_PROXY).toBe('false');
  });
  it('quotes a numeric setting as given and says what it must be, not every range check it also fails', () => {
    expect(() => loadConfig({ SEARCH_THREADS: 'abc' })).toThrow(new ConfigError('Invalid configuration:\n  SEARCH_THREADS="abc": SEARCH_THREADS must be an integer number'));
    expect(() => loadConfig({ SEARCH_THREADS: '2.5' })).toThrow(new ConfigError('Invalid configuration:\n  SEARCH_THREADS="2.5": SEARCH_THREADS must be an integer number'));
    expect(() => loadConfig({ SEARCH_THREADS: '33' })).toThrow(new ConfigError('Invalid configuration:\n  SEARCH_THREADS="33": SEARCH_THREADS must not be greater than 32'));
    expect(() => loadConfig({ RATE_LIMIT_PER_SECOND: 'fast' })).toThrow(new ConfigError('Invalid configuration:\n  RATE_LIMIT_PER_SECOND="fast": RATE_LIMIT_PER_SECOND must be a number'));
    expect(() => loadConfig({ SCHEDULER_INTERVAL_HOURS: 'daily' })).toThrow(new ConfigError('Invalid configuration:\n  SCHEDULER_INTERVAL_HOURS="daily": SCHEDULER_INTERVAL_HOURS must be a number'));
    expect(() => loadConfig({ PORT: 'eighty', SAMPLE_DATA: 'nope' })).toThrow(/PORT="eighty": PORT must be an integer number\n {2}SAMPLE_DATA="nope"/);
    expect(() => loadConfig({}, { SEARCH_THREADS: -1 })).toThrow(/SEARCH_THREADS=-1: SEARCH_THREADS must not be less than 0/);
  });
  it('refuses an enum setting outside its values, naming them', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL="verbose": LOG_LEVEL must be one of the following values: fatal, error, warn, info, debug, trace, silent/);
    expect(() => loadConfig({ TRANSLATOR_PROVIDER: 'bing' })).toThrow(/TRANSLATOR_PROVIDER="bing": TRANSLATOR_PROVIDER must be one of the following values: google, deepl, libretranslate/);
  });
  it('refuses a HOST that is neither an IP address nor a host name at start, naming it', () => {
    for (const host of ['999.1.1.1', 'my host', 'a..b', '-lead.example']) {
      expect(() => loadConfig({ HOST: host })).toThrow(new ConfigError(`Invalid configuration:\n  HOST="${host}": HOST must be an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)`));
    }
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.example.org', 'node-1']) expect(loadConfig({ HOST: host }).HOST).toBe(host);
  });

  it('refuses a DATA_DIR that is a file, naming it; a missing one is fine (created at start)', () => {
    expect(() => loadConfig({ DATA_DIR: __filename })).toThrow(new ConfigError(`Invalid configuration:\n  DATA_DIR="${__filename}": DATA_DIR must be a directory (created when missing), not a file`));
    expect(loadConfig({ DATA_DIR: '/tmp/lookup-config-spec-not-there/data' }).DATA_DIR).toBe('/tmp/lookup-config-spec-not-there/data');
  });

  it('listens on loopback in standalone and on every interface in distributed unless HOST is set', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ PROFILE: 'distributed' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});
