import { ipAllowed, originAllowed } from './restrictions';

describe('key restrictions', () => {
  it('matches origins exactly or by subdomain wildcard', () => {
    expect(originAllowed([], undefined)).toBe(true);
    expect(originAllowed(['https://shop.example'], 'https://shop.example')).toBe(true);
    expect(originAllowed(['https://shop.example'], 'http://shop.example')).toBe(false);
    expect(originAllowed(['https://shop.example'], undefined)).toBe(false);
    expect(originAllowed(['*.example.com'], 'https://a.b.example.com')).toBe(true);
    expect(originAllowed(['*.example.com'], 'https://evil-example.com')).toBe(false);
    expect(originAllowed(['https://shop.example'], 'not a url')).toBe(false);
  });
  it('matches IPv4/IPv6 addresses and CIDR blocks', () => {
    expect(ipAllowed(['10.1.2.0/24'], '10.1.2.77')).toBe(true);
    expect(ipAllowed(['10.1.2.0/24'], '10.1.3.1')).toBe(false);
    expect(ipAllowed(['127.0.0.1'], '::ffff:127.0.0.1')).toBe(true);
    expect(ipAllowed(['2001:db8::/32'], '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], '::1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/99'], '10.0.0.1')).toBe(false);
  });
});
