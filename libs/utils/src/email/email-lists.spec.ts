import { EmailLists } from './email-lists';

describe('EmailLists with the packaged lists', () => {
  const lists = new EmailLists();

  it('loads lists of a plausible size', () => {
    const s = lists.sizes;
    expect(s.disposable).toBeGreaterThan(1000);
    expect(s.free).toBeGreaterThan(1000);
    expect(s.roles).toBeGreaterThan(100);
  });

  it('knows disposable services, including their sub-domains, and not ordinary domains', () => {
    expect(lists.isDisposable('mailinator.com')).toBe(true);
    expect(lists.isDisposable('MAILINATOR.COM')).toBe(true);
    expect(lists.isDisposable('inbox.mailinator.com')).toBe(true);
    expect(lists.isDisposable('gmail.com')).toBe(false);
    // A TLD alone is never matched, even if a list had it.
    expect(new EmailLists({ disposable: ['com'] }).isDisposable('example.com')).toBe(false);
  });

  it('knows free providers, exact domains only', () => {
    expect(lists.isFree('gmail.com')).toBe(true);
    expect(lists.isFree('seznam.cz')).toBe(true);
    expect(lists.isFree('example.com')).toBe(false);
    expect(lists.isFree('corp.gmail.com')).toBe(false);
  });

  it('knows role local parts, ignoring case, quotes and a +tag', () => {
    for (const role of ['info', 'admin', 'Postmaster', 'sales', 'support', 'info+shop', '"info"']) expect(lists.isRole(role)).toBe(true);
    for (const person of ['john.doe', 'alice', 'informatics']) expect(lists.isRole(person)).toBe(false);
  });
});
