// Resolves the workspace's path aliases (tsconfig.base.json) inside dist/ at run time, so
// compiled apps run with plain `node -r ./tools/paths.js dist/apps/<app>/src/main.js`.
const Module = require('module');
const path = require('path');
const { compilerOptions } = require('../tsconfig.base.json');

const dist = path.join(__dirname, '..', 'dist');
const aliases = Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(dist, target.replace(/\.ts$/, '.js'))]);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  for (const [alias, target] of aliases) if (request === alias) return resolve.call(this, target, ...rest);
  return resolve.call(this, request, ...rest);
};
