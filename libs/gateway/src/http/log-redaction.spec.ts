import { Writable } from 'node:stream';
import pino from 'pino';
import { LOG_REDACTION } from './configure-app';
import { REDACTED } from './redact';

/** The gateway's logger as configured (redaction and serializers), its lines as text. */
function logger(): { log: pino.Logger; text: () => string } {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'info', ...LOG_REDACTION }, stream), text: () => out.join('') };
}

describe("the gateway's log lines never carry an API key", () => {
  it('whatever holds it: a request (URL, headers, query, body), headers, a query, a body or an error', () => {
    const { log, text } = logger();
    const request = {
      method: 'POST',
      url: '/v1/places/query?api_key=SECRET-URL&query=Brno',
      hostname: 'lookup.example',
      ip: '192.0.2.1',
      headers: { 'x-swiftyper-api-key': 'SECRET-HEADER', 'x-service-api-key': 'SECRET-SERVICE' },
      query: { api_key: 'SECRET-QUERY' },
      body: { api_key: 'SECRET-BODY' },
    };
    log.info({ req: request }, 'a request');
    log.child({ reqId: 'r1' }).info({ req: request, res: { statusCode: 200 }, responseTime: 1.5 }, 'request completed');
    log.info({ request }, 'the request under another name');
    log.warn({ headers: request.headers, query: request.query, body: request.body }, 'its parts');
    log.error({ err: new Error('bad URL /v1/x?api_key=SECRET-ERROR&a=1') }, 'failed');
    const lines = text();
    expect(lines).not.toContain('SECRET');
    // What the lines are for is still there.
    expect(lines).toContain(`/v1/places/query?api_key=${REDACTED}&query=Brno`);
    expect(lines).toContain('"method":"POST"');
    expect(lines).toContain(`"x-swiftyper-api-key":"${REDACTED}"`);
    expect(lines.split('\n').filter(Boolean)).toHaveLength(5);
  });
});
