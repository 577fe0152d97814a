import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ioFairTimeout } from './io-fair-timeout';
import { MailDns, MailDnsError, MailHostLookup, mailHostsFrom, RecordAnswer } from './mail-dns';

export interface NodeMailDnsOptions {
  /** `ip` or `ip:port` entries (`[v6]:port` for IPv6); empty: the system's resolvers. */
  servers: string[];
  timeoutMs: number;
}

// c-ares codes that mean "the name has no such record" or "the name does not exist".
const NODATA = new Set(['ENODATA', 'ENORECORDS']);
const NXDOMAIN = new Set(['ENOTFOUND']);

/** MailDns over Node's resolver (c-ares), with servers and a timeout of our choosing. */
export class NodeMailDns implements MailDns {
  private readonly resolver: Resolver;

  constructor(private readonly options: NodeMailDnsOptions) {
    // Two tries inside our own deadline: one lost UDP datagram should not cost the verdict.
    this.resolver = new Resolver({ timeout: Math.max(50, Math.floor(options.timeoutMs / 2)), tries: 2 });
    if (options.servers.length > 0) this.resolver.setServers(options.servers);
  }

  async mailHosts(asciiDomain: string, signal?: AbortSignal): Promise<MailHostLookup> {
    const mx = await this.answer(() => this.resolver.resolveMx(asciiDomain), signal);
    return mailHostsFrom(asciiDomain, mx, async () => {
      const v4 = await this.answer(() => this.resolver.resolve4(asciiDomain), signal);
      if (v4.kind === 'records' && v4.records.length > 0) return v4;
      const v6 = await this.answer(() => this.resolver.resolve6(asciiDomain), signal);
      if (v6.kind === 'records' && v6.records.length > 0) return v6;
      // A failed lookup must not pass for "no address": it means unknown, not invalid.
      if (v4.kind === 'failed') return v4;
      return v6.kind === 'failed' ? v6 : v4;
    });
  }

  async addresses(host: string, signal?: AbortSignal): Promise<string[]> {
    if (isIP(host)) return [host];
    const v4 = await this.answer(() => this.resolver.resolve4(host), signal);
    if (v4.kind === 'records' && v4.records.length > 0) return v4.records;
    const v6 = await this.answer(() => this.resolver.resolve6(host), signal);
    if (v6.kind === 'records') return v6.records;
    const failed = [v4, v6].find((a) => a.kind === 'failed');
    if (failed && failed.kind === 'failed') throw new MailDnsError(failed.code);
    return [];
  }

  private async answer<T>(query: () => Promise<T[]>, signal?: AbortSignal): Promise<RecordAnswer<T>> {
    if (signal?.aborted) return { kind: 'failed', code: 'EABORTED' };
    let cancelTimer: (() => void) | undefined;
    let onAbort: (() => void) | undefined;
    const deadline = new Promise<RecordAnswer<T>>((resolve) => {
      cancelTimer = ioFairTimeout(() => resolve({ kind: 'failed', code: 'ETIMEOUT' }), this.options.timeoutMs);
      onAbort = () => resolve({ kind: 'failed', code: 'EABORTED' });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const lookup = query().then(
      (records): RecordAnswer<T> => ({ kind: 'records', records }),
      (err: NodeJS.ErrnoException): RecordAnswer<T> => {
        const code = err.code ?? 'EUNKNOWN';
        if (NODATA.has(code)) return { kind: 'nodata' };
        if (NXDOMAIN.has(code)) return { kind: 'nxdomain' };
        return { kind: 'failed', code };
      },
    );
    try {
      return await Promise.race([lookup, deadline]);
    } finally {
      cancelTimer?.();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }
}
