import { ArgumentsHost } from '@nestjs/common';
import { DomainError } from '@lookup/contracts';
import { noResponder, transportTimeout } from '@lookup/shared/transport';
import { HttpErrorFilter } from './http-error.filter';

/** What the filter sends: status, the two retry headers the SDKs read, and the compat body. */
function render(exception: unknown): { status: number; headers: Record<string, string>; body: { error: { type: string; code: string } } } {
  const out = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    header: (k: string, v: string) => ((out.headers[k.toLowerCase()] = v), reply),
    status: (s: number) => ((out.status = s), reply),
    send: (b: unknown) => ((out.body = b), reply),
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  new HttpErrorFilter().catch(exception, host);
  return out as ReturnType<typeof render>;
}

describe('HttpErrorFilter: a part that is down is a retryable 503/504, never a 500', () => {
  it.each([
    ['the database refusing connections', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 503],
    ['the database restarting (TypeORM QueryFailedError, 57P01)', Object.assign(new Error('terminating connection due to administrator command'), { name: 'QueryFailedError', driverError: { code: '57P01' } }), 503],
    ['the database starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), 503],
    ['no service listening on NATS', noResponder('places.detail'), 503],
    ['a service past its deadline', transportTimeout('places.detail', 5000), 504],
  ])('%s', (_name, err, status) => {
    const r = render(err);
    expect(r.status).toBe(status);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['swiftyper-should-retry']).toBe('true');
    expect(r.body.error.type).toBe(r.body.error.code);
    expect(r.body.error.type).toBe(status === 504 ? 'timeout' : 'service_unavailable');
  });

  it('gives a 503 DomainError without its own Retry-After one, and leaves a client error alone', () => {
    expect(render(new DomainError('service_unavailable', 'down', null, 503)).headers['retry-after']).toBe('1');
    const bad = render(DomainError.invalidParameter('country', 'unknown'));
    expect([bad.status, bad.headers['retry-after'], bad.headers['swiftyper-should-retry']]).toEqual([400, undefined, 'false']);
  });

  it('still answers a bug with a 500 without internals', () => {
    const r = render(new TypeError('secret internals'));
    expect([r.status, r.body.error.type, JSON.stringify(r.body).includes('secret')]).toEqual([500, 'api_error', false]);
  });
});
