import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** How the fake fails one request: in the 200 body (`userError`), as `errorWrappers`, as bare HTTP, or by not answering. */
export type ViesFailure =
  | { kind: 'userError'; code: string }
  | { kind: 'wrapper'; code: string; status?: number }
  | { kind: 'http'; status: number }
  | { kind: 'hang'; ms: number };

export interface FakeVies {
  url: string;
  /** Bodies received, in order. */
  seen: Array<Record<string, string>>;
  /** Consumed one per request before the normal answer resumes. */
  failures: ViesFailure[];
  /** Fail every request with this, until cleared. */
  always?: ViesFailure;
  close(): Promise<void>;
}

/** Traders the fake VIES knows (anything else is INVALID). */
const REGISTER: Record<string, { name: string; address: string; street: string; postal: string; city: string }> = {
  CZ25123891: { name: 'ABC s.r.o.', address: 'Vodičkova 681/18\nNOVÉ MĚSTO\n110 00 PRAHA 1', street: 'Vodičkova 681/18', postal: '11000', city: 'PRAHA 1' },
  DE136695976: { name: '---', address: '---', street: '', postal: '', city: '' },
};

const match = (given: string | undefined, real: string): string => {
  if (!given) return 'NOT_PROCESSED';
  return given.toUpperCase() === real.toUpperCase() ? 'VALID' : 'INVALID';
};

/** A loopback server speaking the VIES REST contract: `POST /check-vat-number` with JSON in and out. */
export async function fakeVies(): Promise<FakeVies> {
  const state = { seen: [], failures: [] } as unknown as FakeVies;
  let counter = 0;
  const held = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/check-vat-number') return send(404, { actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] });
      let b: Record<string, string>;
      try {
        b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT', message: 'The body is not JSON' }] });
      }
      state.seen.push(b);
      const now = new Date().toISOString();
      const failure = state.failures.shift() ?? state.always;
      if (failure) {
        switch (failure.kind) {
          case 'userError':
            return send(200, { countryCode: b.countryCode, vatNumber: b.vatNumber, requestDate: now, valid: false, requestIdentifier: '', name: '---', address: '---', userError: failure.code });
          case 'wrapper':
            return send(failure.status ?? 500, { actionSucceed: false, errorWrappers: [{ error: failure.code, message: `fake ${failure.code}` }] });
          case 'http':
            return send(failure.status, '<html><body>Service Unavailable</body></html>');
          case 'hang': {
            const timer = setTimeout(() => {
              held.delete(timer);
              send(200, {});
            }, failure.ms);
            held.add(timer);
            return;
          }
        }
      }
      if (!/^[A-Z]{2}$/.test(b.countryCode ?? '') || !b.vatNumber) {
        return send(200, { countryCode: b.countryCode, vatNumber: b.vatNumber, requestDate: now, valid: false, userError: 'INVALID_INPUT' });
      }
      const trader = REGISTER[b.countryCode + b.vatNumber];
      const requestIdentifier = b.requesterNumber ? `WAPIAAAAY${String(++counter).padStart(7, '0')}` : '';
      send(200, {
        countryCode: b.countryCode,
        vatNumber: b.vatNumber,
        requestDate: now,
        valid: Boolean(trader),
        requestIdentifier,
        name: trader?.name ?? '---',
        address: trader?.address ?? '---',
        traderName: b.traderName || '---',
        traderStreet: b.traderStreet || '---',
        traderPostalCode: b.traderPostalCode || '---',
        traderCity: b.traderCity || '---',
        traderCompanyType: b.traderCompanyType || '---',
        traderNameMatch: trader ? match(b.traderName, trader.name) : 'NOT_PROCESSED',
        traderStreetMatch: trader ? match(b.traderStreet, trader.street) : 'NOT_PROCESSED',
        traderPostalCodeMatch: trader ? match(b.traderPostalCode, trader.postal) : 'NOT_PROCESSED',
        traderCityMatch: trader ? match(b.traderCity, trader.city) : 'NOT_PROCESSED',
        traderCompanyTypeMatch: 'NOT_PROCESSED',
        userError: trader ? 'VALID' : 'INVALID',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const t of held) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
