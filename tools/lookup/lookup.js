#!/usr/bin/env node
// `lookup <command>`: one entry for starting the API and every CLI. Builds dist/ first only when
// the sources changed, then runs the built entry point (in this process when it can, so a
// command costs one Node start-up).
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
  if (name === 'build') return;
  const main = path.join(ROOT, command.main);
  if (command.heapMb) return runChild(main, args, command.heapMb);
  // The CLIs read process.argv.slice(2) and resolve '@lookup/*' through tools/paths.js.
  process.argv = [process.argv[0], main, ...args];
  require(path.join(ROOT, 'tools', 'paths.js'));
  require(main);
}

/** A heap cap can only be set at Node start-up: such commands run as a child process. */
function runChild(main, args, heapMb) {
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, '-r', path.join(ROOT, 'tools', 'paths.js'), main, ...args], {
    cwd: process.cwd(),
    stdio: 'inherit',
  });
  // Ctrl-C reaches the child through the terminal's process group; SIGTERM from a supervisor does not.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (require("node:os").constants.signals[signal] ?? 1)));
}

try {
  main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`lookup: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
