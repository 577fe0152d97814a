import { isLoopbackHost } from './loopback';
import { loadConfig } from './app-config';

describe('isLoopbackHost: one notion of "this machine" for HOST and for an Origin', () => {
  it('takes localhost, 127.0.0.0/8 and ::1 (bracketed too), in any case', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLoopbackHost(h)).toBe(true);
  });

  it('refuses every other host, also ones that only start or end like a loopback name', () => {
    for (const h of ['0.0.0.0', '::', '10.0.0.7', '128.0.0.1', '127.0.0.1.example.com', 'localhost.example.com', 'mylocalhost', '[::2]', '']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('turns the demo page on by default for every loopback bind address', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(loadConfig({ PROFILE: 'standalone', HOST }).demoPageEnabled).toBe(true);
  });
});
