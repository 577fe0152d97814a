import { Logger } from '@nestjs/common';
import { DomainError } from '@lookup/contracts';
import { unavailableError } from './unavailable';
import { RpcErrorFilter } from './rpc-error.filter';
import { asEnvelope } from './reply';

/** Error shapes as the drivers throw them (node-postgres, TypeORM, the OpenSearch client, Node sockets). */
const named = (name: string, message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name }, extra);

describe('unavailableError: a part that is down is a 503/504 to retry, not a 500', () => {
  const cases: Array<[string, unknown, [string, number] | null]> = [
    ['socket refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), ['service_unavailable', 503]],
    ['socket reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), ['service_unavailable', 503]],
    ['pg admin shutdown in a TypeORM QueryFailedError', named('QueryFailedError', 'terminating connection due to administrator command', { driverError: { code: '57P01' } }), ['service_unavailable', 503]],
    ['pg starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), ['service_unavailable', 503]],
    ['pg connection exception class 08', Object.assign(new Error('x'), { code: '08006' }), ['service_unavailable', 503]],
    ['pg lost connection', new Error('Connection terminated unexpectedly'), ['service_unavailable', 503]],
    ['cause chain', Object.assign(new Error('outer'), { cause: Object.assign(new Error('inner'), { code: 'ECONNREFUSED' }) }), ['service_unavailable', 503]],
    ['engine connection error', named('ConnectionError', 'connect ECONNREFUSED 127.0.0.1:9200'), ['service_unavailable', 503]],
    ['engine no living connections', named('NoLivingConnectionsError', 'There are no living connections'), ['service_unavailable', 503]],
    ['engine request timeout', named('TimeoutError', 'Request timed out'), ['timeout', 504]],
    ['engine shards not ready', named('ResponseError', 'search_phase_execution_exception', { meta: { statusCode: 503, body: { error: { type: 'search_phase_execution_exception' } } } }), ['service_unavailable', 503]],
    ['engine no shard available', named('ResponseError', 'x', { meta: { statusCode: 500, body: { error: { type: 'x', root_cause: [{ type: 'no_shard_available_action_exception' }] } } } }), ['service_unavailable', 503]],
    ['engine bad query (a bug)', named('ResponseError', 'x', { meta: { statusCode: 400, body: { error: { type: 'parsing_exception' } } } }), null],
    ['a plain bug', new TypeError('cannot read x of undefined'), null],
    ['not an error', 'boom', null],
  ];
  it.each(cases)('%s', (_name, err, expected) => {
    const got = unavailableError(err);
    expect(got && [got.type, got.status]).toEqual(expected);
    if (got) expect(got.retryAfter).toBe(1);
  });

  it('is what a service answers for it over the transport, with no internals in the message', () => {
    const env = new RpcErrorFilter().toEnvelope(named('ConnectionError', 'connect ECONNREFUSED 10.0.0.7:9200'));
    expect(env).toMatchObject({ status: 503, type: 'service_unavailable', retryAfter: 1 });
    expect(env.message).not.toContain('10.0.0.7');
    expect(new RpcErrorFilter().toEnvelope(new TypeError('secret'))).toEqual(DomainError.internal().toEnvelope());
  });

  it('also when the error escaped the filter (the reply envelope of any transport)', () => {
    expect(asEnvelope(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toMatchObject({ status: 503, type: 'service_unavailable' });
    expect(asEnvelope(new TypeError('secret'))).toEqual(DomainError.internal().toEnvelope());
  });

  it('logs the cause of such an error as the filter does: a warning for a part that is down, the stack otherwise', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      asEnvelope(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9200'), { name: 'ConnectionError' }));
      expect(warn.mock.calls.map((c) => c[0])).toEqual(["service_unavailable (outside the handler's filter): ConnectionError: connect ECONNREFUSED 127.0.0.1:9200"]);
      const bug = new TypeError('a bug');
      asEnvelope(bug);
      expect(error.mock.calls.map((c) => c[0])).toEqual([bug.stack]);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
