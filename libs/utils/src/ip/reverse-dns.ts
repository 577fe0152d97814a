import { Resolver } from 'node:dns/promises';

/**
 * PTR lookups with a short, hard timeout through the configured resolvers (`ip` or `ip:port`;
 * none: the system's). Any failure, including a timeout, is "no hostname", never an error:
 * the hostname is the least important field of an IP answer.
 */
export class ReverseDns {
  constructor(
    private readonly servers: string[],
    private readonly timeoutMs: number,
  ) {}

  async hostname(ip: string): Promise<string | null> {
    const resolver = new Resolver({ timeout: this.timeoutMs, tries: 1 });
    if (this.servers.length) resolver.setServers(this.servers);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        resolver.cancel();
        resolve(null);
      }, this.timeoutMs);
    });
    try {
      const names = await Promise.race([resolver.reverse(ip), timeout]);
      return names?.[0] ?? null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `IP_DNS_SERVERS` as a list. */
export function parseDnsServers(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
