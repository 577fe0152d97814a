import { callerIp, parseProxyTrust } from './client-ip';

describe('the caller address (restrictions, around_latlng_via_ip)', () => {
  it('uses only the socket address by default, whatever a header says', () => {
    const p = parseProxyTrust('false', 'x-forwarded-for');
    expect(callerIp(p, '203.0.113.9', '203.0.113.9', '212.111.1.1')).toBe('203.0.113.9');
    expect(callerIp(parseProxyTrust('false', 'x-real-ip'), '::ffff:127.0.0.1', '::ffff:127.0.0.1', '212.111.1.1')).toBe('127.0.0.1');
  });

  it('takes x-forwarded-for as Fastify walked it under TRUST_PROXY', () => {
    expect(callerIp(parseProxyTrust('1', 'x-forwarded-for'), '10.0.0.2', '212.111.1.1', '1.1.1.1, 212.111.1.1')).toBe('212.111.1.1');
  });

  it('takes a one-address header only from a trusted proxy peer (address or CIDR list, true, hops)', () => {
    const list = parseProxyTrust('10.0.0.0/8, 192.0.2.7', 'X-Real-IP');
    expect(list).toEqual({ header: 'x-real-ip', trust: ['10.0.0.0/8', '192.0.2.7'] });
    expect(callerIp(list, '10.1.2.3', '10.1.2.3', '212.111.1.1')).toBe('212.111.1.1');
    expect(callerIp(list, '::ffff:192.0.2.7', '::ffff:192.0.2.7', '212.111.1.1')).toBe('212.111.1.1');
    expect(callerIp(list, '198.51.100.1', '198.51.100.1', '212.111.1.1')).toBe('198.51.100.1');
    expect(callerIp(parseProxyTrust('true', 'x-real-ip'), '198.51.100.1', '198.51.100.1', '212.111.1.1')).toBe('212.111.1.1');
    expect(callerIp(parseProxyTrust('2', 'x-real-ip'), '198.51.100.1', '198.51.100.1', ['1.1.1.1', '212.111.1.1'])).toBe('212.111.1.1');
  });

  it('ignores a header value that is not an address (no error)', () => {
    const p = parseProxyTrust('true', 'x-real-ip');
    expect(callerIp(p, '10.0.0.2', '10.0.0.2', 'unknown')).toBe('10.0.0.2');
    expect(callerIp(p, '10.0.0.2', '10.0.0.2', undefined)).toBe('10.0.0.2');
  });
});
