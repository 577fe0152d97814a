import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { acquireImportLease, createOpenSearchClient, ImportLeaseHolder, ImportLeaseTimeoutError, importLocksIndex, OpenSearchClient } from '@lookup/shared/search';

describeWith(['opensearch'], 'import lease on OpenSearch (one import per scope across processes)', () => {
  let client: OpenSearchClient;
  const prefix = uniqueName('lease');
  const index = importLocksIndex(prefix);

  beforeAll(() => {
    client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 10000 });
  });
  afterAll(async () => {
    await client.indices.delete({ index }).catch(() => undefined);
    await client.close();
  });

  const stored = async (scope: string) => {
    const res = await client.get({ index, id: scope } as never).catch(() => null);
    return res ? (res.body as { _source: ImportLeaseHolder & { expiresAt: number } })._source : null;
  };
  const plant = (scope: string, h: Partial<ImportLeaseHolder> & { expiresAt: number }) =>
    client.index({ index, id: scope, refresh: true, body: { host: 'elsewhere', pidNamespace: 'pid:[1]', pid: 1, command: 'planted', startedAt: '2026-01-01T00:00:00Z', token: 't', scope, ...h } } as never);

  it('a second import of the scope waits for the first, told who holds it, and gets it once released', async () => {
    const first = await acquireImportLease(client, prefix, 'places:CZ', 'import addresses CZ first.zip');
    expect(await stored('places:CZ')).toMatchObject({ command: 'import addresses CZ first.zip', pid: process.pid });
    const told: ImportLeaseHolder[] = [];
    let got = false;
    const second = acquireImportLease(client, prefix, 'places:CZ', 'import catalogue CZ', { pollMs: 50, onWait: (h) => told.push(h) }).then((l) => {
      got = true;
      return l;
    });
    // Another scope is independent.
    const other = await acquireImportLease(client, prefix, 'places:SK', 'import addresses SK');
    await new Promise((r) => setTimeout(r, 500));
    expect(got).toBe(false);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ command: 'import addresses CZ first.zip', pid: process.pid, host: hostname() });
    await first.release();
    const lease = await second;
    expect(await stored('places:CZ')).toMatchObject({ command: 'import catalogue CZ' });
    lease.assertHeld();
    await lease.release();
    await other.release();
    expect(await stored('places:CZ')).toBeNull();
    expect(await stored('places:SK')).toBeNull();
  });

  it('a lease renewed by a live holder is never free; one whose holder died on this host is taken over at once', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const ns = readlinkSync('/proc/self/ns/pid');
    // Valid for another 10 minutes, but its process is gone: taken over without waiting for it to expire.
    await plant('places:AT', { host: hostname(), pidNamespace: ns, pid: dead, expiresAt: Date.now() + 600_000 });
    const t0 = Date.now();
    const lease = await acquireImportLease(client, prefix, 'places:AT', 'after a crash', { pollMs: 50 });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await stored('places:AT')).toMatchObject({ command: 'after a crash', pid: process.pid });
    await lease.release();

    // Same pid number in another PID namespace (another container): its liveness cannot be seen from here, so only expiry frees it.
    await plant('places:CH', { host: hostname(), pidNamespace: 'pid:[1]', pid: dead, expiresAt: Date.now() + 600_000 });
    await expect(acquireImportLease(client, prefix, 'places:CH', 'x', { pollMs: 50, maxWaitMs: 300 })).rejects.toThrow(ImportLeaseTimeoutError);
  });

  it('a lease of another host frees when it expires; before that a bounded wait fails naming the holder', async () => {
    await plant('business', { command: 'import business CZ res.csv', pid: 4242, expiresAt: Date.now() + 600_000 });
    await expect(acquireImportLease(client, prefix, 'business', 'mine', { pollMs: 50, maxWaitMs: 300 })).rejects.toThrow(/import business CZ res.csv, pid 4242 on elsewhere/);
    await plant('business', { command: 'import business CZ res.csv', pid: 4242, expiresAt: Date.now() - 1 });
    const lease = await acquireImportLease(client, prefix, 'business', 'mine', { pollMs: 50 });
    expect(await stored('business')).toMatchObject({ command: 'mine' });
    await lease.release();
  });

  it('the holder renews its lease; one whose lease another took over must not switch, and its release leaves the new holder be', async () => {
    const lease = await acquireImportLease(client, prefix, 'places:PL', 'slow', { leaseMs: 600 });
    const e0 = (await stored('places:PL'))!.expiresAt;
    await new Promise((r) => setTimeout(r, 450));
    expect((await stored('places:PL'))!.expiresAt).toBeGreaterThan(e0);
    lease.assertHeld();
    // Another process took it over (as it would after this one stalled past the lease).
    await plant('places:PL', { command: 'the new holder', expiresAt: Date.now() + 600_000 });
    await new Promise((r) => setTimeout(r, 450));
    expect(() => lease.assertHeld()).toThrow(/taken over by another process/);
    await lease.release();
    expect(await stored('places:PL')).toMatchObject({ command: 'the new holder' });
  });

  it('the locks index gets the replica rule of every index of ours (green on one node)', async () => {
    const res = await client.indices.getSettings({ index } as never);
    const s = (res.body as Record<string, { settings: { index: { auto_expand_replicas?: string } } }>)[index].settings.index;
    expect(s.auto_expand_replicas).toBe('0-1');
  });
});
