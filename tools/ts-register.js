// Runs TypeScript straight from the sources (no build into the shared dist/): the benchmarks
//   node -r ./tools/ts-register.js bench/search-import.ts ...
// and the search threads a test or a bench starts from source (search/search-threads.ts).
// Transpiles with the workspace's .swcrc (decorator metadata for Nest) and resolves the path aliases.
const fs = require('fs');
const path = require('path');
const Module = require('module');
const { transformSync } = require('@swc/core');

const root = path.join(__dirname, '..');
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const { compilerOptions } = require('../tsconfig.base.json');
const aliases = Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]);

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  for (const [alias, target] of aliases) if (request === alias) return resolve.call(this, target, ...rest);
  return resolve.call(this, request, ...rest);
};
require.extensions['.ts'] = function (module, filename) {
  const src = fs.readFileSync(filename, 'utf8');
  const out = transformSync(src, { ...swcrc, sourceMaps: false, filename, swcrc: false });
  module._compile(out.code, filename);
};
