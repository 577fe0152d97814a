import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RuianSubset, ruianSubset as placesRuianSubset } from '@lookup/places';

const README = resolve(__dirname, '../../../../README.md');

/**
 * The `npm run import -- ...` commands of the README's "Importing official data" section, in the
 * README's order, as argv arrays (comments dropped), for one country: what a user would type.
 */
export function readmeImportCommands(country: string): string[][] {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Importing official data'));
  const block = section.slice(section.indexOf('```bash') + 7, section.indexOf('```', section.indexOf('```bash') + 7));
  return block
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l.startsWith('npm run import -- '))
    .map((l) => l.slice('npm run import -- '.length).split(/\s+/))
    .filter((argv) => argv[1] === country);
}

/** The argv with each file name replaced by the real path the test has for it (a name it lacks fails the test). */
export function withFiles(argv: string[], files: Record<string, string>): string[] {
  return argv.map((a, i) => {
    if (i < 2 || a.startsWith('--')) return a;
    const path = files[a];
    if (!path) throw new Error(`the README names ${a}; this test has no file for it`);
    return path;
  });
}

/** A folder of RUIAN address CSVs cut from the real monthly zip at test time: every `step`-th municipality file. */
export function ruianSubset(zip: string, dir: string, step: number): Promise<RuianSubset> {
  return placesRuianSubset(zip, dir, { step });
}
