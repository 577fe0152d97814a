import { layerDocs, LiveDataset, statusAfterRun, statusLines } from './dataset-status';

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

describe('statusLines: each layer with its own documents, and the version it lives in now', () => {
  // The README's SK order: the catalogue (the CLI), the addresses (carrying the catalogue), a change batch; then the catalogue again.
  const catalogue: LiveDataset = { format: 'catalogue', source: '/data/davky.zip, /data/SK.txt', since: '2026-11-29T01:00:00.000Z', version: '20261129010000000', docs: 6415, ...layerDocs({ docs: 6415, loaded: 6415, version: '20261129010000000' }) };
  const addresses: LiveDataset = { format: 'sk-register', source: '/data/davky.zip', since: '2026-11-29T01:01:00.000Z', version: '20261129010100000', docs: 40452, ...layerDocs({ docs: 40452, loaded: 34037, version: '20261129010100000' }) };
  const changes: LiveDataset = { format: 'sk-register-xml', source: '/data/zmenovadavka5156536.xml', since: '2026-11-29T01:02:00.000Z', version: 'incremental', docs: 277, ...layerDocs({ docs: 277, loaded: 277, version: 'incremental' }) };

  it('says how many documents the layer gave and how many the version holds, a change batch what it changed', () => {
    expect(statusLines({ SK: { catalogue, addresses, 'address-changes': changes } })).toEqual([
      'SK address-changes live since 2026-11-29T01:02:00.000Z  sk-register-xml  version incremental  277 documents changed  from /data/zmenovadavka5156536.xml',
      'SK addresses       live since 2026-11-29T01:01:00.000Z  sk-register  version 20261129010100000  34037 documents (40452 in the version)  from /data/davky.zip',
      // The catalogue's own version was replaced by the addresses' (which carried it).
      'SK catalogue       live since 2026-11-29T01:00:00.000Z  catalogue  version 20261129010000000, carried into 20261129010100000  6415 documents  from /data/davky.zip, /data/SK.txt',
    ]);
  });

  it('names the newer version on the addresses when the catalogue is imported again after them', () => {
    const again: LiveDataset = { ...catalogue, since: '2026-11-29T02:00:00.000Z', version: '20261129020000000', docs: 40452, ...layerDocs({ docs: 40452, loaded: 6415, version: '20261129020000000' }) };
    const lines = statusLines({ SK: { catalogue: again, addresses } });
    expect(lines[0]).toContain('version 20261129010100000, carried into 20261129020000000  34037 documents (40452 in the version)');
    expect(lines[1]).toContain('version 20261129020000000  6415 documents (40452 in the version)');
  });
});
