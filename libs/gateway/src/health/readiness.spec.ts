import { ConnectionState, TransportClient } from '@lookup/shared/transport';
import { runChecks, transportConnectionCheck, TRANSPORT_DOWN_READY_MS } from './readiness';

function transportWith(state: ConnectionState | undefined): TransportClient {
  const t: TransportClient = { request: () => Promise.reject(new Error('unused')), close: async () => undefined };
  if (state) t.connectionState = () => state;
  return t;
}

describe('gateway readiness and the NATS connection', () => {
  it('stays ready through a short NATS outage (requests wait for the connection meanwhile)', async () => {
    const check = transportConnectionCheck(transportWith({ connected: false, downForMs: TRANSPORT_DOWN_READY_MS - 1000 }))!;
    expect((await runChecks([check])).status).toBe('ok');
  });

  it('is not ready once NATS has been unreachable for longer than the grace', async () => {
    const check = transportConnectionCheck(transportWith({ connected: false, downForMs: TRANSPORT_DOWN_READY_MS + 1 }))!;
    const result = await runChecks([check]);
    expect(result.status).toBe('unavailable');
    expect(result.checks['nats']).toMatchObject({ status: 'failed', error: expect.stringContaining('NATS connection down') });
  });

  it('is ready when connected, and has no such check for a transport without a connection (standalone)', async () => {
    expect((await runChecks([transportConnectionCheck(transportWith({ connected: true, downForMs: 0 }))!])).status).toBe('ok');
    expect(transportConnectionCheck(transportWith(undefined))).toBeNull();
  });
});
