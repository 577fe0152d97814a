import { ConfigError, loadConfig } from './app-config';

describe('demo page settings', () => {
  it('is on by default only for the standalone profile on a loopback address', () => {
    expect(loadConfig({ PROFILE: 'standalone', HOST: '127.0.0.1' }).demoPageEnabled).toBe(true);
    expect(loadConfig({ PROFILE: 'standalone', HOST: '0.0.0.0' }).demoPageEnabled).toBe(false);
    expect(loadConfig({ PROFILE: 'distributed', HOST: '127.0.0.1' }).demoPageEnabled).toBe(false);
  });

  it('follows DEMO_PAGE when given', () => {
    expect(loadConfig({ PROFILE: 'standalone', HOST: '0.0.0.0', DEMO_PAGE: 'true' }).demoPageEnabled).toBe(true);
    expect(loadConfig({ PROFILE: 'standalone', HOST: '127.0.0.1', DEMO_PAGE: 'false' }).demoPageEnabled).toBe(false);
    expect(loadConfig({ PROFILE: 'standalone', HOST: '127.0.0.1', DEMO_PAGE: '' }).demoPageEnabled).toBe(true);
  });

  it('takes an http(s) tile URL template or nothing', () => {
    expect(loadConfig({ DEMO_TILE_URL: 'https://tile.example.org/{z}/{x}/{y}.png' }).DEMO_TILE_URL).toBe('https://tile.example.org/{z}/{x}/{y}.png');
    expect(loadConfig({}).DEMO_TILE_URL).toBe('');
    expect(() => loadConfig({ DEMO_TILE_URL: 'javascript:alert(1)' })).toThrow(ConfigError);
  });
});
