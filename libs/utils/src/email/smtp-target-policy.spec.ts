import { isIpLiteral, parseCidrs, SmtpTargetPolicy } from './smtp-target-policy';

describe('SmtpTargetPolicy', () => {
  const strict = new SmtpTargetPolicy();

  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fc12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '[::1]',
  ])('refuses %s (not public)', (ip) => {
    expect(strict.refusal(ip)).toMatch(/not a public address/);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2a00:1450:4001:81c::1b', '::ffff:8.8.8.8'])('allows %s (public)', (ip) => {
    expect(strict.refusal(ip)).toBeNull();
  });

  it('the allow-list opens exactly the listed blocks', () => {
    const policy = new SmtpTargetPolicy(parseCidrs(['127.0.0.1', '10.20.0.0/16', 'fd00::/8']));
    expect(policy.refusal('127.0.0.1')).toBeNull();
    expect(policy.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(policy.refusal('127.0.0.2')).not.toBeNull();
    expect(policy.refusal('10.20.3.4')).toBeNull();
    expect(policy.refusal('10.21.0.1')).not.toBeNull();
    expect(policy.refusal('fd12::1')).toBeNull();
    expect(policy.refusal('fe80::1')).not.toBeNull();
  });

  it('names a bad allow-list entry', () => {
    expect(() => parseCidrs(['10.0.0.0/33'])).toThrow('"10.0.0.0/33"');
    expect(() => parseCidrs(['mail.example'])).toThrow('EMAIL_SMTP_ALLOWED_CIDRS');
    expect(() => parseCidrs(['10.0.0.0/x'])).toThrow('"10.0.0.0/x"');
  });

  it('tells IP-literal exchangers from host names', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('mx.example.test')).toBe(false);
  });
});
