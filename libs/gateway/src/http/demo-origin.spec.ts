import { demoOriginAllowed } from './demo-page';

describe('demoOriginAllowed: which page origins get a demo key', () => {
  it('gives one to a loopback origin on any port, http or https', () => {
    for (const o of ['http://127.0.0.1:3000', 'http://localhost', 'https://LOCALHOST:8443', 'http://127.0.0.2:9', 'http://[::1]:3000']) expect(demoOriginAllowed(o, [])).toBe(true);
  });

  it('refuses other origins, look-alikes and anything that is not a bare origin, unless DEMO_PAGE_ORIGINS names it', () => {
    for (const o of ['https://shop.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'http://evil.example/localhost', 'null', 'file://localhost', 'http://localhost:3000/x', 'http://user@localhost']) {
      expect(demoOriginAllowed(o, [])).toBe(false);
    }
    expect(demoOriginAllowed('https://Shop.Example', ['https://shop.example'])).toBe(true);
  });
});
