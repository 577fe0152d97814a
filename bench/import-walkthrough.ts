/**
 * The README's Czech import walkthrough on the whole real register, as a user runs it: the
 * `npm run import -- ...` commands of "Importing official data" for CZ (catalogue, then addresses),
 * literally and in the README's order, into a fresh data dir (SQLite), then what a user would
 * check: 14 regions, 77 counties, no address without a county or a region, `status`.
 *
 *   npm run build && node -r ./tools/paths.js dist/bench/import-walkthrough.js
 *   BENCH_DIR=/tmp/walk  BENCH_FLOOR=0 (skip the floor)  BENCH_DATA=../shared/data
 *
 * Per command: wall time, peak RSS (GNU time's maximum resident set of the process tree: npm,
 * lookup, the import), load average before/after. The floor, measured in the same run: the same
 * RUIAN zip parsed into a no-op sink (`bench/import-ruian.ts`), so the address import can be
 * given as a ratio to it on this shared machine. Prints a JSON summary and a Markdown table row.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

const ROOT = resolve(__dirname, '..', '..');
const DATA = resolve(process.env['BENCH_DATA'] ?? join(ROOT, '..', 'shared', 'data'));
const DIR = resolve(process.env['BENCH_DIR'] ?? '/tmp/lookup-import-walkthrough');
const FLOOR = process.env['BENCH_FLOOR'] !== '0';
const FILES: Record<string, string> = {
  'zv_cobce_psc.zip': join(DATA, 'cz/psc-list.csv'),
  'CZ.txt': join(DATA, 'geonames/CZ.txt'),
  '20231231_OB_ADR_csv.zip': join(DATA, 'cz/20231231_OB_ADR_csv.zip'),
};

/** The README's CZ catalogue and address commands, in its order (as libs/indexer/src/testing/readme-commands.ts reads them). */
function readmeCommands(): string[][] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('## Importing official data'));
  const start = section.indexOf('```bash') + 7;
  return section
    .slice(start, section.indexOf('```', start))
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l.startsWith('npm run import -- '))
    .map((l) => l.slice('npm run import -- '.length).split(/\s+/))
    .filter((a) => a[1] === 'CZ' && (a[0] === 'catalogue' || a[0] === 'addresses'))
    .map((a) => a.map((x, i) => (i < 2 || x.startsWith('--') ? x : (FILES[x] ?? fail(`the README names ${x}; no file for it`)))));
}

function fail(msg: string): never {
  throw new Error(msg);
}

interface Step {
  command: string;
  seconds: number;
  peakRssMb: number;
  loadBefore: number;
  loadAfter: number;
  maxLoad: number;
  output: string;
}

/** One command under GNU time (`%e %M`: wall seconds, max RSS in KB of the tree it waited for). */
function timed(label: string, argv: string[], env: NodeJS.ProcessEnv): Promise<Step> {
  return new Promise((done, reject) => {
    const loadBefore = loadavg()[0]!;
    let maxLoad = loadBefore;
    const sampler = setInterval(() => (maxLoad = Math.max(maxLoad, loadavg()[0]!)), 1000);
    const child = spawn('/usr/bin/time', ['-f', 'TIME %e %M', ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      clearInterval(sampler);
      const m = /TIME ([\d.]+) (\d+)/.exec(err);
      if (code !== 0 || !m) return reject(new Error(`${label} exited ${code}:\n${out}\n${err.slice(-2000)}`));
      done({ command: label, seconds: Number(m[1]), peakRssMb: Math.round(Number(m[2]) / 1024), loadBefore, loadAfter: loadavg()[0]!, maxLoad, output: out.trim() });
    });
  });
}

async function main(): Promise<void> {
  for (const f of Object.values(FILES)) if (!existsSync(f)) fail(`${f} is not there (see ../shared/data/README.md)`);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  execFileSync(process.execPath, ['tools/lookup/build-once.js'], { cwd: ROOT, stdio: 'inherit' });
  const env = { ...process.env, PROFILE: 'standalone', DATA_DIR: DIR, LOG_LEVEL: 'warn' };
  const steps: Step[] = [];
  if (FLOOR) {
    steps.push(await timed('floor: RUIAN zip into a no-op sink (bench/import-ruian.ts)', [process.execPath, '-r', './tools/paths.js', 'dist/bench/import-ruian.js', FILES['20231231_OB_ADR_csv.zip']!, FILES['zv_cobce_psc.zip']!], env));
  }
  for (const argv of readmeCommands()) {
    const label = `npm run import -- ${argv.join(' ').replaceAll(DATA + '/', '')}`;
    process.stderr.write(`${label} ...\n`);
    steps.push(await timed(label, ['npm', 'run', '--silent', 'import', '--', ...argv], env));
    process.stderr.write(`  ${steps.at(-1)!.seconds} s, peak RSS ${steps.at(-1)!.peakRssMb} MB\n`);
  }
  const status = execFileSync('npm', ['run', '--silent', 'import', '--', 'status'], { cwd: ROOT, env }).toString().trim();

  // What the user checks, on the store the server would open.
  const db = new Database(join(DIR, 'places.sqlite'), { readonly: true });
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const checks = {
    regions: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'region'`),
    counties: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'county'`),
    municipalities: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'municipality'`),
    addresses: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'address'`),
    addressesWithoutCountyOrRegion: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ' AND object = 'address' AND (county_id IS NULL OR region_id IS NULL)`),
    documents: count(`SELECT count(*) AS n FROM places WHERE country = 'CZ'`),
  };
  db.close();
  const ok = checks.regions === 14 && checks.counties === 77 && checks.addressesWithoutCountyOrRegion === 0;
  const floor = steps.find((s) => s.command.startsWith('floor'));
  const addresses = steps.find((s) => s.command.includes(' addresses CZ '))!;
  const fmt = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');
  console.log(JSON.stringify({ steps: steps.map(({ output, ...s }) => ({ ...s, output: output.split('\n').filter((l) => !l.startsWith('  reported')).slice(0, 6) })), status: status.split('\n'), checks, ok }, null, 1));
  const imports = steps.filter((s) => !s.command.startsWith('floor'));
  console.log(
    `| README CZ walkthrough (\`bench/import-walkthrough.ts\`): catalogue then addresses, \`npm run import\` literally, SQLite, load ${Math.min(...imports.map((s) => s.loadBefore)).toFixed(1)}-${Math.max(...imports.map((s) => s.maxLoad)).toFixed(1)} | ${fmt(checks.addresses)} addresses, ${fmt(checks.documents)} docs | ` +
      imports.map((s) => `${s.command.split(' ')[4]} ${s.seconds.toFixed(1)} s (peak RSS ${s.peakRssMb} MB)`).join(', ') +
      (floor ? `; addresses = ${(addresses.seconds / floor.seconds).toFixed(2)} x the no-op-sink parse (${floor.seconds.toFixed(1)} s, same run)` : '') +
      `; ${checks.regions} regions, ${checks.counties} counties, ${fmt(checks.municipalities)} municipalities, ${checks.addressesWithoutCountyOrRegion} addresses without county/region |`,
  );
  if (!ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
