import { parseAddress } from './email-address';
import { EmailFacts, verdictOf } from './email-verdict';
import { ProbeOutcome } from './smtp-probe';

const address = parseAddress('john@example.com');
const hosts: EmailFacts['dns'] = { kind: 'hosts', hosts: [{ exchange: 'mx.example.com', priority: 10, implicit: false }] };
const answered = (rcpt: Extract<ProbeOutcome, { kind: 'answered' }>['rcpt'], catchAll = false): ProbeOutcome => ({ kind: 'answered', host: 'mx.example.com', rcpt, catchAll, tls: true, reply: '' });
const facts = (over: Partial<EmailFacts>): EmailFacts => ({ address, disposable: false, roleAccount: false, free: false, dns: hosts, ...over });

describe('verdictOf', () => {
  it('an accepted ordinary mailbox is safe, and the fields say why', () => {
    expect(verdictOf(facts({ probe: answered('accepted') }))).toEqual({
      email: 'john@example.com',
      username: 'john',
      domain: 'example.com',
      reachable: 'safe',
      disposable: false,
      roleAccount: false,
      mxValid: true,
      connection: true,
      inboxFull: false,
      catchAll: false,
      deliverable: true,
      disabled: false,
      free: false,
    });
  });

  it('free providers stay safe: free is information, not risk', () => {
    expect(verdictOf(facts({ free: true, probe: answered('accepted') }))).toMatchObject({ reachable: 'safe', free: true });
  });

  it.each([
    ['disposable', facts({ disposable: true, probe: answered('accepted') })],
    ['role account', facts({ roleAccount: true, probe: answered('accepted') })],
    ['catch-all', facts({ probe: answered('accepted', true) })],
    ['full inbox', facts({ probe: answered('full') })],
  ])('an existing mailbox that is a %s is risky', (_, f) => {
    expect(verdictOf(f).reachable).toBe('risky');
  });

  it.each([
    ['bad syntax', facts({ address: parseAddress('john@@example.com'), dns: undefined })],
    ['no domain', facts({ dns: { kind: 'none', reason: 'nxdomain' } })],
    ['null MX', facts({ dns: { kind: 'none', reason: 'null-mx' } })],
    ['no server answering', facts({ probe: { kind: 'no-server', detail: 'refused' } })],
    ['unknown mailbox', facts({ probe: answered('rejected') })],
    ['disabled mailbox', facts({ probe: answered('disabled') })],
    // Being disposable does not make a non-existent mailbox merely risky.
    ['unknown mailbox at a disposable domain', facts({ disposable: true, probe: answered('rejected') })],
    ['UTF-8 mailbox at a server without SMTPUTF8', facts({ probe: { kind: 'utf8-unsupported', host: 'mx' } })],
  ])('%s is invalid', (_, f) => {
    expect(verdictOf(f).reachable).toBe('invalid');
  });

  it.each([
    ['DNS failing', facts({ dns: { kind: 'failed', reason: 'MX ETIMEOUT' } })],
    ['probing off', facts({ probe: 'off' })],
    ['a timeout', facts({ probe: { kind: 'inconclusive', detail: 'timeout' } })],
    ['greylisting', facts({ probe: answered('temporary') })],
    ['our IP blocked', facts({ probe: answered('blocked') })],
    ['probing off for a role account', facts({ roleAccount: true, probe: 'off' })],
  ])('%s is unknown', (_, f) => {
    expect(verdictOf(f).reachable).toBe('unknown');
  });

  it('connection is true only when the dialogue reached RCPT TO', () => {
    expect(verdictOf(facts({ probe: answered('temporary') })).connection).toBe(true);
    expect(verdictOf(facts({ probe: { kind: 'inconclusive', detail: 'greeting timeout' } })).connection).toBe(false);
    expect(verdictOf(facts({ probe: 'off' })).connection).toBe(false);
  });
});
