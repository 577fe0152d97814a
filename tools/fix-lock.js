#!/usr/bin/env node
/**
 * The npm registry mirror on our build machines does not serve 25 platform-specific optional
 * packages (@swc/core-darwin-*, win32, @unrs/resolver-binding-* ...). `npm install` then drops
 * them from package-lock.json and `npm ci` refuses the lock. This puts back the entries listed
 * in tools/lock-platform-entries.json (version taken from the parent's optionalDependencies when
 * it changed). Run after every `npm install`: `node tools/fix-lock.js`.
 */
const fs = require('node:fs');
const path = require('node:path');
const root = path.resolve(__dirname, '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const wanted = JSON.parse(fs.readFileSync(path.join(__dirname, 'lock-platform-entries.json'), 'utf8'));
const pkgs = lock.packages;
const optionalVersion = new Map();
for (const entry of Object.values(pkgs)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) optionalVersion.set(name, range);
}
let added = 0;
for (const [key, entry] of Object.entries(wanted)) {
  const name = key.replace(/^node_modules\//, '');
  if (!optionalVersion.has(name)) continue; // nothing depends on it any more
  if (pkgs[key]) continue;
  const v = optionalVersion.get(name);
  pkgs[key] = { ...entry, version: /^\d/.test(v) ? v : entry.version };
  added++;
}
const sorted = {};
for (const k of Object.keys(pkgs).sort((a, b) => a.localeCompare(b, 'en'))) sorted[k] = pkgs[k];
lock.packages = sorted;
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`fix-lock: ${added} platform entr${added === 1 ? 'y' : 'ies'} restored`);
