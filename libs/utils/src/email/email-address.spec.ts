import { emailId, parseAddress, toAsciiDomain } from './email-address';

describe('parseAddress', () => {
  it.each([
    ['john.doe@example.com', 'john.doe', 'example.com', 'example.com'],
    ['  John.Doe+tag@Example.COM ', 'John.Doe+tag', 'example.com', 'example.com'],
    ["o'brien!#$%&*=?^_`{|}~@example.com", "o'brien!#$%&*=?^_`{|}~", 'example.com', 'example.com'],
    ['"john doe"@example.com', '"john doe"', 'example.com', 'example.com'],
    ['"a\\"b"@example.com', '"a\\"b"', 'example.com', 'example.com'],
    ['jürgen@münchen.de', 'jürgen', 'münchen.de', 'xn--mnchen-3ya.de'],
    ['user@XN--MNCHEN-3YA.DE', 'user', 'münchen.de', 'xn--mnchen-3ya.de'],
    ['用户@例子.广告', '用户', '例子.广告', 'xn--fsqu00a.xn--4rr70v'],
    ['иван@пример.рф', 'иван', 'пример.рф', 'xn--e1afmkfd.xn--p1ai'],
  ])('accepts %s', (input, username, domain, asciiDomain) => {
    expect(parseAddress(input)).toMatchObject({ ok: true, username, domain, asciiDomain });
  });

  it('marks a UTF-8 local part as needing SMTPUTF8, an IDN domain alone does not', () => {
    expect(parseAddress('jürgen@example.com')).toMatchObject({ needsSmtpUtf8: true });
    expect(parseAddress('juergen@münchen.de')).toMatchObject({ needsSmtpUtf8: false });
  });

  it.each([
    ['', 'no @'],
    ['plainaddress', 'no @'],
    ['@example.com', 'local part'],
    ['john..doe@example.com', 'local part'],
    ['.john@example.com', 'local part'],
    ['john.@example.com', 'local part'],
    ['john doe@example.com', 'local part'],
    ['john@doe@example.com', 'local part'],
    ['"unclosed@example.com', 'local part'],
    [`${'a'.repeat(65)}@example.com`, 'local part'],
    ['john@', 'domain'],
    ['john@localhost', 'domain'],
    ['john@example', 'domain'],
    ['john@-example.com', 'domain'],
    ['john@example-.com', 'domain'],
    ['john@exa_mple.com', 'domain'],
    ['john@example..com', 'domain'],
    ['john@example.com.', 'domain'],
    ['john@192.168.0.1', 'domain'],
    ['john@[192.168.0.1]', 'domain literal'],
    [`john@${'a'.repeat(64)}.com`, 'domain'],
    [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`, 'too long'],
  ])('refuses %j (%s)', (input, why) => {
    expect(parseAddress(input)).toMatchObject({ ok: false, why });
  });

  it('keeps a best-effort split of an invalid address for the answer', () => {
    expect(parseAddress('John..Doe@Example.COM')).toEqual({ ok: false, email: 'John..Doe@Example.COM', username: 'John..Doe', domain: 'example.com', why: 'local part' });
  });

  it('normalises to NFC so composed and decomposed umlauts are one address', () => {
    const composed = parseAddress('j\u00fcrgen@example.com');
    const decomposed = parseAddress('ju\u0308rgen@example.com');
    expect(decomposed).toEqual(composed);
  });
});

describe('toAsciiDomain', () => {
  it('maps full-width dots and letters (UTS #46) and lower-cases', () => {
    expect(toAsciiDomain('ＥＸＡＭＰＬＥ．ｃｏｍ')).toBe('example.com');
  });
});

describe('emailId', () => {
  it('is 24 hex digits, the same for every spelling of one mailbox, different for another', () => {
    const id = emailId(parseAddress('Jürgen@MÜNCHEN.de'));
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(emailId(parseAddress('jürgen@xn--mnchen-3ya.de'))).toBe(id);
    expect(emailId(parseAddress(' jürgen@münchen.de '))).toBe(id);
    expect(emailId(parseAddress('juergen@münchen.de'))).not.toBe(id);
  });

  it('gives invalid input an id too', () => {
    expect(emailId(parseAddress('not an address'))).toMatch(/^[0-9a-f]{24}$/);
  });
});
