import { redactText, redactUrl, REDACTED } from './redact';

describe('API key redaction', () => {
  it.each([
    ['/v1/places/query?api_key=SECRET&query=a', `/v1/places/query?api_key=${REDACTED}&query=a`],
    ['/v1/x?query=a&API_KEY=SECRET', `/v1/x?query=a&API_KEY=${REDACTED}`],
    ['/v1/x?api%5Fkey=SECRET', `/v1/x?api%5Fkey=${REDACTED}`],
    ['/v1/x?api_key[0]=SECRET&api_key%5B1%5D=SECRET', `/v1/x?api_key[0]=${REDACTED}&api_key%5B1%5D=${REDACTED}`],
    ['/v1/x?query=api_key', '/v1/x?query=api_key'],
    ['/v1/x', '/v1/x'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
  it('redacts a key quoted in free text', () => {
    expect(redactText(`'/v1/places/%E0?a=1&api_key=SECRET' is not a valid url`)).not.toContain('SECRET');
  });
});
