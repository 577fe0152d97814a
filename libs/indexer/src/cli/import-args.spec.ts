import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@lookup/shared/testing';
import { checkLocalInput, DEFAULT_WAIT_TIMEOUT_S, ImportUsageError, parseDatasetArgs } from './import-args';
import { isDatasetCommand } from './dataset-import';
import { progressBar, progressReporter, progressView } from './progress';

describe('import CLI arguments', () => {
  const bad = (argv: string[]) => {
    try {
      parseDatasetArgs(argv);
    } catch (err) {
      expect(err).toBeInstanceOf(ImportUsageError);
      return (err as Error).message.split('\n')[0];
    }
    throw new Error('accepted');
  };

  it('takes kind, country, location and flags, with the format by default', () => {
    expect(parseDatasetArgs(['addresses', 'cz', 'adr.zip', '--dry-run'])).toMatchObject({ kind: 'addresses', country: 'CZ', format: 'ruian-csv', location: expect.stringMatching(/\/adr\.zip$/), isUrl: false, dryRun: true, force: false });
    expect(parseDatasetArgs(['address-changes', 'SK', 'https://example.org/zmeny.xml', '--force'])).toMatchObject({ format: 'sk-register-xml', isUrl: true, location: 'https://example.org/zmeny.xml', force: true });
    expect(parseDatasetArgs(['business', 'CZ', 'res.csv', '--format', 'cz-res-csv', '--checksum', `SHA256:${'A'.repeat(64)}`])).toMatchObject({ checksum: `sha256:${'a'.repeat(64)}` });
  });

  it('names the argument at fault', () => {
    expect(bad(['streets', 'CZ', 'x'])).toBe('unknown import command "streets"; one of: status, catalogue, addresses, address-changes, postal-codes, business');
    expect(bad(['addresses', 'DE', 'x'])).toMatch(/^country: unknown country DE/);
    expect(bad(['addresses', 'CZ', 'x', '--format', 'sk-register'])).toBe('country: sk-register is a dataset of SK, not CZ');
    expect(bad(['addresses', 'SK', 'x', '--format', 'sk-register-xml'])).toBe('--format: sk-register-xml holds address-changes, not addresses');
    expect(bad(['addresses', 'CZ', 'x', '--format', 'shapefile'])).toMatch(/^--format: unknown format shapefile/);
    expect(bad(['business', 'CZ', 'x'])).toMatch(/^--format: business of CZ comes in several formats; say which: cz-res-csv, cz-ares-json/);
    // The README's own command: the file's name tells which.
    expect(parseDatasetArgs(['business', 'CZ', 'res_data.csv'])).toMatchObject({ format: 'cz-res-csv' });
    expect(parseDatasetArgs(['business', 'CZ', 'https://example.org/ares/00177041.json'])).toMatchObject({ format: 'cz-ares-json' });
    expect(bad(['addresses', 'CZ', 'ftp://example.org/a.zip'])).toMatch(/^location: only http\(s\) URLs/);
    expect(bad(['addresses', 'CZ', 'x', '--checksum', 'md5:1'])).toMatch(/^--checksum: must be sha256/);
    expect(bad(['addresses', 'CZ', 'x', '--format'])).toBe('--format needs a value');
    expect(bad(['addresses', 'CZ', 'x', '--fast'])).toBe('unknown option --fast');
    expect(bad(['addresses'])).toMatch(/^Usage: npm run import/);
    expect(bad(['addresses', 'CZ', 'x', '--wait-timeout', '60'])).toBe('--wait-timeout: only with --wait');
    expect(bad(['addresses', 'CZ', 'x', '--wait', '--wait-timeout', '0'])).toBe('--wait-timeout: a whole number of seconds (1 or more), got 0');
    expect(bad(['addresses', 'CZ', 'x', '--wait', '--wait-timeout', '1.5'])).toBe('--wait-timeout: a whole number of seconds (1 or more), got 1.5');
  });

  it('names an unknown command word, with every word the import command takes', () => {
    const words = 'one of: status, catalogue, addresses, address-changes, postal-codes, business';
    expect(bad(['stauts'])).toBe(`unknown import command "stauts"; ${words}`);
    expect(bad(['adresses', 'CZ'])).toBe(`unknown import command "adresses"; ${words}`);
    expect(bad(['stauts', '--fast'])).toBe('unknown option --fast');
    expect(bad(['status', 'CZ'])).toBe('import status takes no arguments or options, got CZ');
    expect(bad(['status', '--dry-run'])).toBe('import status takes no arguments or options, got --dry-run');
    expect(bad([])).toMatch(/^Usage: npm run import/);
  });

  it('--wait: two hours unless --wait-timeout says otherwise; no wait without it', () => {
    expect(parseDatasetArgs(['addresses', 'CZ', 'x']).waitS).toBeUndefined();
    expect(parseDatasetArgs(['addresses', 'CZ', 'x', '--wait']).waitS).toBe(DEFAULT_WAIT_TIMEOUT_S);
    expect(DEFAULT_WAIT_TIMEOUT_S).toBe(7200);
    expect(parseDatasetArgs(['addresses', 'CZ', '--wait', '--wait-timeout', '90']).waitS).toBe(90);
  });

  it('without a file, asks for the current official one to be resolved', () => {
    expect(parseDatasetArgs(['addresses', 'CZ'])).toMatchObject({ kind: 'addresses', country: 'CZ', format: 'ruian-csv', official: true, isUrl: true });
  });

  it('checks the local file: present, readable, not empty, with the given checksum', async () => {
    const dir = tempDir();
    const file = join(dir.path, 'adr.csv');
    writeFileSync(file, 'abc');
    const sha = 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    await expect(checkLocalInput(parseDatasetArgs(['addresses', 'CZ', file]))).resolves.toEqual({ checksum: sha, bytes: 3, modifiedAt: expect.any(String) });
    await expect(checkLocalInput(parseDatasetArgs(['addresses', 'CZ', file, '--checksum', `sha256:${'0'.repeat(64)}`]))).rejects.toThrow(`--checksum: the file's is ${sha}`);
    await expect(checkLocalInput(parseDatasetArgs(['addresses', 'CZ', join(dir.path, 'none.zip')]))).rejects.toThrow(/^location: .*none\.zip does not exist$/);
    writeFileSync(join(dir.path, 'empty.zip'), '');
    await expect(checkLocalInput(parseDatasetArgs(['addresses', 'CZ', join(dir.path, 'empty.zip')]))).rejects.toThrow(/is empty$/);
    await expect(checkLocalInput(parseDatasetArgs(['addresses', 'CZ', dir.path]))).resolves.toEqual({ bytes: 0, modifiedAt: expect.any(String) });
    dir.remove();
  });

  it('keeps the catalogue command form for the catalogue branch', () => {
    expect(isDatasetCommand(['catalogue', 'CZ', '--psc-list', 'a.csv'])).toBe(false);
    expect(isDatasetCommand(['catalogue', 'CZ', 'psc-list.csv'])).toBe(true);
    expect(isDatasetCommand(['addresses', 'CZ', 'a.zip'])).toBe(true);
  });

  it('a catalogue given as a bare file where only the catalogue form reads one says which option names it', () => {
    expect(bad(['catalogue', 'AT', 'AT.txt'])).toBe('catalogue of AT: name the file by its option, GeoNames postal codes: npm run import -- catalogue AT --geonames AT.txt');
    expect(bad(['catalogue', 'sk', 'davky.zip'])).toBe('catalogue of SK: name the file by its option, the register batches and GeoNames: npm run import -- catalogue SK --register davky.zip --geonames SK.txt');
    expect(parseDatasetArgs(['catalogue', 'CZ', 'psc-list.csv'])).toMatchObject({ format: 'cz-catalogue-csv' });
  });
});

describe('import progress', () => {
  it('computes rate and ETA from bytes read', () => {
    const v = progressView({ docs: 50_000, bytes: 250, totalBytes: 1000 }, 10);
    expect(v).toEqual({ docs: 50_000, rate: 5000, fraction: 0.25, etaSeconds: 30, elapsedSeconds: 10 });
    expect(progressBar(v, 10)).toBe('[###-------]  25% 50,000 docs  5,000 docs/s  ETA 0:30');
    expect(progressBar(progressView({ docs: 7 }, 2), 10)).toBe('7 docs  4 docs/s  0:02 elapsed');
    // Without byte counts: no fraction and no ETA (the live version's size is no measure of a new file).
    expect(progressView({ docs: 300 }, 3, { expectedDocs: 1200 })).toMatchObject({ fraction: null, etaSeconds: null });
  });

  it('redraws a bar on a terminal and logs JSON lines at a bounded rate otherwise', () => {
    let t = 0;
    const lines: string[] = [];
    const log = progressReporter({ write: (s: string) => lines.push(s), isTTY: false }, { label: 'CZ addresses', logEveryMs: 1000, now: () => t });
    for (t = 0; t <= 5000; t += 100) log.update({ docs: t * 10 });
    log.finish();
    // One line a second (6 in 5 s) plus the final one (drawn at 5.1 s: 50,000 docs / 5.1 s).
    expect(lines).toHaveLength(7);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: 'import.progress', dataset: 'CZ addresses', docs: 50000, rate: 9804 });
    const tty: string[] = [];
    const bar = progressReporter({ write: (s: string) => tty.push(s), isTTY: true }, { label: 'SK', now: () => 1000 });
    bar.update({ docs: 1, bytes: 1, totalBytes: 2 });
    bar.finish();
    expect(tty[0]).toMatch(/^\r\x1b\[2KSK \[#{15}-{15}\]  50% 1 docs/);
    expect(tty.at(-1)).toBe('\n');
  });

  it('a step ends the bar and gets a line of its own (a JSON line off a terminal); the bar goes on below it', () => {
    const tty: string[] = [];
    const bar = progressReporter({ write: (s: string) => tty.push(s), isTTY: true }, { label: 'CZ catalogue', now: () => 2000 });
    bar.update({ docs: 2835278 });
    bar.step('verifying the new version: 2835278 documents, canary searches');
    expect(tty.slice(-2)).toEqual(['\n', 'CZ catalogue: verifying the new version: 2835278 documents, canary searches\n']);
    const lines: string[] = [];
    let t = 0;
    const log = progressReporter({ write: (s: string) => lines.push(s), isTTY: false }, { label: 'CZ catalogue', now: () => t });
    log.update({ docs: 10 });
    t = 61_500;
    log.step('switching to the new version, then removing the old one');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ event: 'import.step', dataset: 'CZ catalogue', message: 'switching to the new version, then removing the old one', elapsedSeconds: 61.5 });
    // The last progress before it was drawn first (it was not yet, inside logEveryMs).
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ event: 'import.progress', docs: 10 });
  });
});
