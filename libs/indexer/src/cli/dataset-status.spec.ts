import { LiveDataset, statusAfterRun } from './dataset-status';

describe('statusAfterRun: what `import status` keeps after a change batch', () => {
  const applied: LiveDataset = { format: 'sk-register-xml', source: '/data/zmenovadavka5156536.xml', since: '2026-11-28T22:06:51.203Z', version: 'incremental', docs: 277, event: 'SK:address-changes:a:1' };
  const rerun: LiveDataset = { ...applied, since: '2026-11-28T22:07:03.714Z', docs: 0, event: 'SK:address-changes:a:2' };
  const changes = (newRecords: number, docs: number) => ({ docs, changes: { newRecords } });

  it('keeps the batch that changed something when the same batch brings nothing new, with the run\'s event id', () => {
    expect(statusAfterRun(applied, changes(0, 0), rerun)).toEqual({ ...applied, event: 'SK:address-changes:a:2' });
    const standalone: LiveDataset = { ...rerun };
    delete standalone.event;
    expect(statusAfterRun(applied, changes(0, 0), standalone)).toEqual(applied);
  });

  it('records a batch with new records or written documents, the first batch, and every full import', () => {
    expect(statusAfterRun(applied, changes(3, 0), rerun)).toBe(rerun);
    expect(statusAfterRun(applied, changes(0, 8), rerun)).toBe(rerun);
    expect(statusAfterRun(undefined, changes(0, 0), rerun)).toBe(rerun);
    expect(statusAfterRun(applied, { docs: 0 }, rerun)).toBe(rerun);
  });
});
