import { ConfigError, loadConfig } from '@lookup/shared/config';
import { emailOptionsFrom } from './email.options';

describe('emailOptionsFrom', () => {
  it('has working defaults: SMTP on port 25, system resolvers, a one-hour cache', () => {
    const o = emailOptionsFrom(loadConfig({}));
    expect(o).toMatchObject({ smtpProbe: true, smtp: { port: 25 }, dnsServers: [], cacheTtlMs: 3_600_000 });
  });

  it('reads the switches and servers from the environment', () => {
    const o = emailOptionsFrom(
      loadConfig({ EMAIL_SMTP_PROBE: 'false', EMAIL_SMTP_PORT: '2525', EMAIL_DNS_SERVERS: '127.0.0.1:5353, [::1]:53', EMAIL_CACHE_TTL_SECONDS: '0' }),
    );
    expect(o).toMatchObject({ smtpProbe: false, smtp: { port: 2525 }, dnsServers: ['127.0.0.1:5353', '[::1]:53'], cacheTtlMs: 0 });
  });

  it('keeps the check budget inside the transport timeout so callers get a verdict, not a 504', () => {
    expect(emailOptionsFrom(loadConfig({ EMAIL_CHECK_TIMEOUT_MS: '15000', TRANSPORT_TIMEOUT_MS: '5000' })).budgetMs).toBe(4500);
    expect(emailOptionsFrom(loadConfig({ EMAIL_CHECK_TIMEOUT_MS: '3000', TRANSPORT_TIMEOUT_MS: '20000' })).budgetMs).toBe(3000);
  });

  it('refuses a bad port at boot', () => {
    expect(() => loadConfig({ EMAIL_SMTP_PORT: '0' })).toThrow(ConfigError);
  });
});
