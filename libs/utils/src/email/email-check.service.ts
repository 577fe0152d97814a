import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { EmailCheckResult } from '@lookup/contracts';
import { emailId, InvalidAddress, parseAddress, ParsedAddress } from './email-address';
import { EmailLists } from './email-lists';
import { TtlCache } from './email-result.cache';
import { EmailFacts, EmailVerdictFields, verdictOf } from './email-verdict';
import { EMAIL_LISTS, EMAIL_OPTIONS, EmailOptions, MAIL_DNS, MAILBOX_PROBER } from './email.options';
import { MailDns } from './mail-dns';
import { MailboxProber } from './smtp-probe';

type Verdict = Omit<EmailVerdictFields, 'email'>;

/**
 * One e-mail check: syntax -> lists -> MX (or A) -> SMTP probe -> verdict. The whole check runs
 * inside one budget; what is not known when it runs out is reported as `unknown`.
 */
@Injectable()
export class EmailCheckService {
  private readonly logger = new Logger('EmailCheck');
  private readonly cache: TtlCache<Verdict>;
  // Concurrent checks of one address share a single SMTP dialogue instead of hammering the server.
  private readonly inFlight = new Map<string, Promise<Verdict>>();

  constructor(
    @Inject(EMAIL_OPTIONS) private readonly options: EmailOptions,
    @Inject(MAIL_DNS) private readonly dns: MailDns,
    @Inject(MAILBOX_PROBER) private readonly prober: MailboxProber,
    @Inject(EMAIL_LISTS) private readonly lists: EmailLists,
  ) {
    this.cache = new TtlCache(options.cacheTtlMs, options.cacheMaxEntries);
  }

  async check(input: string): Promise<EmailCheckResult> {
    const started = performance.now();
    const address = parseAddress(input);
    const id = emailId(address);
    let verdict = this.cache.get(id);
    if (!verdict) {
      let pending = this.inFlight.get(id);
      if (!pending) {
        pending = this.decide(address).finally(() => this.inFlight.delete(id));
        this.inFlight.set(id, pending);
      }
      verdict = await pending;
      // `unknown` is a passing state (greylisting, a timeout): asking again soon may settle it.
      if (verdict.reachable !== 'unknown') this.cache.set(id, verdict);
    }
    const took = Math.round((performance.now() - started) * 100) / 100;
    return { email_id: id, email: address.email, ...verdict, took };
  }

  private async decide(address: ParsedAddress | InvalidAddress): Promise<Verdict> {
    const facts = await this.facts(address);
    const { email: _email, ...verdict } = verdictOf(facts);
    return verdict;
  }

  private async facts(address: ParsedAddress | InvalidAddress): Promise<EmailFacts> {
    if (!address.ok) return { address, disposable: false, roleAccount: false, free: false };
    const facts: EmailFacts = {
      address,
      disposable: this.lists.isDisposable(address.asciiDomain),
      roleAccount: this.lists.isRole(address.username),
      free: this.lists.isFree(address.asciiDomain),
    };
    const signal = AbortSignal.timeout(this.options.budgetMs);
    facts.dns = await this.dns.mailHosts(address.asciiDomain, signal);
    if (facts.dns.kind !== 'hosts') return facts;
    if (!this.options.smtpProbe) return { ...facts, probe: 'off' };
    facts.probe = await this.prober.probe({
      hosts: facts.dns.hosts.map((h) => h.exchange),
      resolve: (host) => this.dns.addresses(host, signal),
      localPart: address.username,
      asciiDomain: address.asciiDomain,
      needsSmtpUtf8: address.needsSmtpUtf8,
      signal,
    });
    if (facts.probe.kind === 'inconclusive' || facts.probe.kind === 'not-probed') this.logger.debug(`${address.asciiDomain}: ${facts.probe.detail}`);
    return facts;
  }
}
