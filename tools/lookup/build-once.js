// Builds dist/ only when the sources changed since the last build, so `npm start` and every
// `lookup` command start in about a second instead of paying a 25 s TypeScript build each time.
// "Changed" = a newer mtime or a different number of build inputs than the stamp recorded; a
// directory walk takes ~15 ms where `tsc --incremental` needs ~3 s just to find nothing to do.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp.json');
const BUILD_INFO = path.join(DIST, '.tsbuildinfo');
const SOURCE_DIRS = ['apps', 'libs', 'tools', 'bench'];
const CONFIG_FILES = ['tsconfig.base.json', 'tsconfig.build.json'];
// Tests are not compiled by tsconfig.build.json: editing one must not trigger a build.
const NOT_BUILT = /\.(spec|int-spec|e2e-spec)\.ts$/;

/** The newest mtime and the count of the build's inputs. */
function scanSources(root = ROOT) {
  let files = 0;
  let newest = 0;
  const visit = (file) => {
    files++;
    newest = Math.max(newest, fs.statSync(file).mtimeMs);
  };
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !NOT_BUILT.test(e.name)) visit(p);
    }
  };
  for (const d of SOURCE_DIRS) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  for (const f of CONFIG_FILES) if (fs.existsSync(path.join(root, f))) visit(path.join(root, f));
  return { files, newest };
}

function readStamp() {
  try {
    return JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/** Why a build is needed, or null when dist/ is up to date. */
function staleReason(scan = scanSources(), stamp = readStamp()) {
  if (!stamp) return 'no previous build';
  if (stamp.files !== scan.files) return 'source files were added or removed';
  if (scan.newest > stamp.newest) return 'sources changed';
  return null;
}

/** Runs tsc (incremental: a rebuild after a small change takes seconds) and writes the stamp. */
function build({ force = false, quiet = false } = {}) {
  const scan = scanSources();
  const stamp = readStamp();
  const reason = force ? 'requested' : staleReason(scan, stamp);
  if (!reason) return false;
  // Without a stamp dist/ may have been emptied by hand: a stale build info would then skip emitting.
  if (!stamp) fs.rmSync(BUILD_INFO, { force: true });
  if (!quiet) process.stderr.write(`lookup: building (${reason})...\n`);
  const started = Date.now();
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const res = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', BUILD_INFO], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) {
    fs.rmSync(STAMP, { force: true });
    throw new Error(`the TypeScript build failed (exit ${res.status ?? res.signal}); fix the errors above`);
  }
  fs.writeFileSync(STAMP, JSON.stringify(scan) + '\n');
  if (!quiet) process.stderr.write(`lookup: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

module.exports = { build, scanSources, staleReason, STAMP };

if (require.main === module) {
  try {
    build({ force: process.argv.includes('--force') });
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
