import { classifyRcpt, extensionsOf, parseReplies, SmtpProtocolError, SmtpReply } from './smtp-reply';

const reply = (line: string): SmtpReply => parseReplies(`${line}\r\n`).replies[0];

describe('parseReplies', () => {
  it('joins multi-line replies and keeps an unfinished one for the next read', () => {
    const { replies, rest } = parseReplies('220 mx ESMTP\r\n250-mx.example\r\n250-STARTTLS\r\n250 SMTPUTF8\r\n250-PART');
    expect(replies).toEqual([
      { code: 220, enhanced: null, lines: ['mx ESMTP'] },
      { code: 250, enhanced: null, lines: ['mx.example', 'STARTTLS', 'SMTPUTF8'] },
    ]);
    expect(rest).toBe('250-PART');
    const more = parseReplies(`${rest}IAL\r\n250 DONE\r\n`);
    expect(more).toEqual({ replies: [{ code: 250, enhanced: null, lines: ['PARTIAL', 'DONE'] }], rest: '' });
  });

  it('reads the enhanced status code, bare LF line ends and a bare code', () => {
    expect(parseReplies('550 5.1.1 <x@y>: User unknown\n354\n').replies).toEqual([
      { code: 550, enhanced: '5.1.1', lines: ['5.1.1 <x@y>: User unknown'] },
      { code: 354, enhanced: null, lines: [''] },
    ]);
  });

  it('refuses text that is not SMTP', () => {
    expect(() => parseReplies('HTTP/1.1 400 Bad Request\r\n')).toThrow(SmtpProtocolError);
  });
});

describe('extensionsOf', () => {
  it('lists EHLO keywords in upper case with their parameters', () => {
    const ext = extensionsOf(reply('250-mx.example Hello\r\n250-size 35882577\r\n250-STARTTLS\r\n250 SMTPUTF8'));
    expect([...ext]).toEqual([['SIZE', '35882577'], ['STARTTLS', ''], ['SMTPUTF8', '']]);
  });
});

describe('classifyRcpt', () => {
  it.each([
    ['250 2.1.5 Ok', 'accepted'],
    ['251 User not local; will forward', 'accepted'],
    // Full inbox, the ways real servers say it.
    ['452 4.2.2 The email account that you tried to reach is over quota.', 'full'],
    ['552 5.2.2 Mailbox full', 'full'],
    ['552 Requested mail action aborted: exceeded storage allocation', 'full'],
    ['550 5.2.2 <x@y>: user is over quota', 'full'],
    ['450 4.2.2 Mailbox full', 'full'],
    // 452 without quota wording is "too many recipients" or a lack of resources: try later.
    ['452 4.5.3 Too many recipients', 'temporary'],
    // Greylisting and other transient answers.
    ['450 4.2.0 <x@y>: Recipient address rejected: Greylisted', 'temporary'],
    ['451 4.7.1 Please try again later', 'temporary'],
    ['421 4.7.0 Try again later, closing connection.', 'temporary'],
    // Disabled mailboxes.
    ['550 5.2.1 The email account that you tried to reach is disabled.', 'disabled'],
    ['550 Mailbox disabled for this recipient', 'disabled'],
    ['550 Account inactive', 'disabled'],
    ['554 delivery error: dd This user doesn\'t have a yahoo.com account (suspended)', 'disabled'],
    // The server refuses us, not the mailbox.
    ['550 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org', 'blocked'],
    ['554 5.7.1 Access denied', 'blocked'],
    ['550 Your IP is listed in a blacklist', 'blocked'],
    // No such mailbox.
    ['550 5.1.1 <x@y>: Recipient address rejected: User unknown in local recipient table', 'rejected'],
    ['550 No such user here', 'rejected'],
    ['553 5.1.3 Invalid address', 'rejected'],
    ['550 Requested action not taken: mailbox unavailable; fully qualified name required', 'rejected'],
  ])('%s -> %s', (line, verdict) => {
    expect(classifyRcpt(reply(line))).toBe(verdict);
  });
});
