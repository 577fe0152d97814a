import { mailHostsFrom, RecordAnswer } from './mail-dns';

const noAddress = async (): Promise<RecordAnswer<string>> => ({ kind: 'nodata' });
const hasAddress = async (): Promise<RecordAnswer<string>> => ({ kind: 'records', records: ['192.0.2.1'] });

describe('mailHostsFrom', () => {
  it('sorts MX records by preference, then name, and drops the trailing dot', async () => {
    const mx = { kind: 'records' as const, records: [{ exchange: 'b.mx.', priority: 20 }, { exchange: 'c.mx', priority: 10 }, { exchange: 'A.mx', priority: 20 }] };
    expect(await mailHostsFrom('d.test', mx, noAddress)).toEqual({
      kind: 'hosts',
      hosts: [
        { exchange: 'c.mx', priority: 10, implicit: false },
        { exchange: 'a.mx', priority: 20, implicit: false },
        { exchange: 'b.mx', priority: 20, implicit: false },
      ],
    });
  });

  it('treats a null MX (RFC 7505) as "no mail", whatever A records say', async () => {
    expect(await mailHostsFrom('d.test', { kind: 'records', records: [{ exchange: '', priority: 0 }] }, hasAddress)).toEqual({ kind: 'none', reason: 'null-mx' });
  });

  it('falls back to the domain itself when it has an address but no MX', async () => {
    expect(await mailHostsFrom('d.test', { kind: 'nodata' }, hasAddress)).toEqual({ kind: 'hosts', hosts: [{ exchange: 'd.test', priority: 0, implicit: true }] });
    expect(await mailHostsFrom('d.test', { kind: 'nodata' }, noAddress)).toEqual({ kind: 'none', reason: 'no-records' });
  });

  it('tells a missing domain and a failing DNS apart', async () => {
    expect(await mailHostsFrom('d.test', { kind: 'nxdomain' }, hasAddress)).toEqual({ kind: 'none', reason: 'nxdomain' });
    expect(await mailHostsFrom('d.test', { kind: 'failed', code: 'ETIMEOUT' }, hasAddress)).toEqual({ kind: 'failed', reason: 'MX ETIMEOUT' });
    expect(await mailHostsFrom('d.test', { kind: 'nodata' }, async () => ({ kind: 'failed', code: 'ESERVFAIL' }))).toEqual({ kind: 'failed', reason: 'A ESERVFAIL' });
  });
});
