import { AppConfig } from '@lookup/shared/config';
import { SmtpProbeOptions } from './smtp-probe';
import { parseCidrs } from './smtp-target-policy';

export const EMAIL_OPTIONS = Symbol('EMAIL_OPTIONS');
export const MAIL_DNS = Symbol('MAIL_DNS');
export const MAILBOX_PROBER = Symbol('MAILBOX_PROBER');
export const EMAIL_LISTS = Symbol('EMAIL_LISTS');

export interface EmailOptions {
  smtpProbe: boolean;
  smtp: SmtpProbeOptions;
  dnsServers: string[];
  dnsTimeoutMs: number;
  /** Whole-check budget: past it the answer is `unknown`, never a transport timeout. */
  budgetMs: number;
  cacheTtlMs: number;
  cacheMaxEntries: number;
}

/** Room left for the reply to travel back before the caller's transport timeout fires. */
const REPLY_MARGIN_MS = 500;

export function emailOptionsFrom(config: AppConfig): EmailOptions {
  return {
    smtpProbe: config.EMAIL_SMTP_PROBE,
    smtp: {
      port: config.EMAIL_SMTP_PORT,
      timeoutMs: config.EMAIL_SMTP_TIMEOUT_MS,
      heloName: config.EMAIL_HELO_NAME,
      mailFrom: config.EMAIL_MAIL_FROM,
      allowed: parseCidrs(list(config.EMAIL_SMTP_ALLOWED_CIDRS)),
    },
    dnsServers: list(config.EMAIL_DNS_SERVERS),
    dnsTimeoutMs: config.EMAIL_DNS_TIMEOUT_MS,
    budgetMs: Math.max(100, Math.min(config.EMAIL_CHECK_TIMEOUT_MS, config.TRANSPORT_TIMEOUT_MS - REPLY_MARGIN_MS)),
    cacheTtlMs: config.EMAIL_CACHE_TTL_SECONDS * 1000,
    cacheMaxEntries: config.EMAIL_CACHE_MAX_ENTRIES,
  };
}

function list(csv: string): string[] {
  return csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
