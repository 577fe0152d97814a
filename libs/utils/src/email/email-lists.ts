import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import freeProviders from 'email-providers/all.json';

// role-based-email-addresses ships no types: a plain CommonJS array of local parts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const roleLocalParts = require('role-based-email-addresses') as string[];

// RFC 2606 / 6761 names: documentation and test domains are nobody's mail service, yet the
// free-provider list carries example.com.
const RESERVED = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const isReserved = (domain: string) => RESERVED.test(domain);

/**
 * Domain and local-part lists from maintained npm packages, loaded once per process:
 * - disposable: `disposable-email-domains-js` (CC0-1.0), the community disposable-email-domains blocklist;
 * - free: `email-providers` (ISC), `all.json`, free mail providers;
 * - role: `role-based-email-addresses` (MIT), local parts such as info, admin, sales.
 */
export class EmailLists {
  private readonly disposableDomains: ReadonlySet<string>;
  private readonly freeDomains: ReadonlySet<string>;
  private readonly roles: ReadonlySet<string>;

  constructor(lists?: { disposable?: Iterable<string>; free?: Iterable<string>; roles?: Iterable<string> }) {
    this.disposableDomains = new Set(lists?.disposable ?? disposableEmailBlocklist());
    this.freeDomains = new Set([...(lists?.free ?? (freeProviders as string[]))].filter((d) => !isReserved(d)));
    this.roles = new Set([...(lists?.roles ?? roleLocalParts)].map((r) => r.toLowerCase()));
  }

  /** Sub-domains count too: throwaway services hand out `anything.their-domain`. */
  isDisposable(asciiDomain: string): boolean {
    const labels = asciiDomain.toLowerCase().split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      if (this.disposableDomains.has(labels.slice(i).join('.'))) return true;
    }
    return false;
  }

  isFree(asciiDomain: string): boolean {
    return this.freeDomains.has(asciiDomain.toLowerCase());
  }

  /** `info+shop@` is still the info role: the sub-address tag is dropped first. */
  isRole(localPart: string): boolean {
    const base = localPart.replace(/^"|"$/g, '').split('+', 1)[0].toLowerCase();
    return this.roles.has(base);
  }

  get sizes(): { disposable: number; free: number; roles: number } {
    return { disposable: this.disposableDomains.size, free: this.freeDomains.size, roles: this.roles.size };
  }
}
