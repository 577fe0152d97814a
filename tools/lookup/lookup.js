#!/usr/bin/env node
// `lookup <command>`: one entry for starting the API and every CLI. Builds dist/ first only when
// the sources changed, then runs the built entry point as a child with the path-alias hook as a
// Node option (`-r tools/paths.js`): worker threads (the standalone search threads) inherit it
// from execArgv, which a hook loaded with require() would not give them.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { build } = require('./build-once');
const { COMMANDS, overview } = require('./commands');

const ROOT = path.join(__dirname, '..', '..');

function main(argv) {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(overview() + '\n');
    return;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`lookup: unknown command ${name}\n\n${overview()}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(command.help + '\n');
    return;
  }
  build({ force: name === 'build' && args.includes('--force') });
  // A developer's server listens on loopback unless told otherwise (and then shows the demo page).
  if (name === 'start') process.env['HOST'] ??= '127.0.0.1';
  if (name === 'build') return;
  runChild(path.join(ROOT, command.main), args, command.heapMb);
}

/** The built entry point as a child (a heap cap, too, can only be set at Node start-up). */
function runChild(main, args, heapMb) {
  const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  const child = spawn(process.execPath, [...heap, '-r', path.join(ROOT, 'tools', 'paths.js'), main, ...args], {
    cwd: process.cwd(),
    stdio: 'inherit',
  });
  // Ctrl-C reaches the child through the terminal's process group; SIGTERM from a supervisor does not.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  // `kill <pid of npm start>`: npm dies without passing the signal on, and this process would be
  // re-parented with the server still listening. Its parent gone, the server is stopped as for SIGTERM.
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    child.kill('SIGTERM');
  }, 500);
  orphaned.unref();
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (require("node:os").constants.signals[signal] ?? 1)));
}

try {
  main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`lookup: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
