// A V8 .cpuprofile (Chrome DevTools / `node --cpu-prof` / inspector Profiler.stop) as text and
// as a flame graph, without dependencies:
//   node bench/cpuprofile-summary.js <file.cpuprofile> [top=40] [--svg out.svg]
// Prints the top functions by self time, the top by total time (each function counted once per
// stack), and the share of time by package (node_modules/<pkg>, node: internals, our libs/apps).
const { readFileSync, writeFileSync } = require('node:fs');

function nodesOf(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample weights: time deltas when present (µs), else one each.
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 1)));
  return { byId, parent, self };
}

function where(cf) {
  const url = cf.url || '';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const own = /\/(libs|apps|bench|tools)\/(.+)$/.exec(url);
  if (own) return own[1] + '/' + own[2].split('/').slice(0, own[1] === 'libs' ? 2 : 1).join('/');
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native)';
  return url;
}

function label(cf) {
  const url = cf.url || '';
  const file = url.replace(/^.*node_modules\//, '').replace(/^.*\/(libs|apps|bench|tools)\//, '$1/').replace(/^file:\/\//, '');
  return `${cf.functionName || '(anonymous)'} ${file ? file + ':' + (cf.lineNumber + 1) : ''}`.trim();
}

function summarize(profile, top = 40) {
  const { byId, parent, self } = nodesOf(profile);
  let total = 0;
  for (const v of self.values()) total += v;
  const selfBy = new Map();
  const totalBy = new Map();
  const pkgBy = new Map();
  for (const [id, t] of self) {
    const n = byId.get(id);
    const l = label(n.callFrame);
    selfBy.set(l, (selfBy.get(l) ?? 0) + t);
    pkgBy.set(where(n.callFrame), (pkgBy.get(where(n.callFrame)) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cl = label(byId.get(cur).callFrame);
      if (seen.has(cl)) continue;
      seen.add(cl);
      totalBy.set(cl, (totalBy.get(cl) ?? 0) + t);
    }
  }
  const pct = (t) => ((t / total) * 100).toFixed(1).padStart(5) + ' %';
  const table = (title, m, n) =>
    [`${title}`, ...[...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([l, t]) => `${pct(t)}  ${l}`)].join('\n');
  const ms = (total / 1000).toFixed(0);
  return [
    `sampled ${ms} ms of the main thread`,
    table('\nby package (self time):', pkgBy, 25),
    table(`\ntop ${top} by self time:`, selfBy, top),
    table(`\ntop ${top} by total time (inclusive):`, totalBy, top),
  ].join('\n');
}

/** An icicle-style flame graph (root at the top), one rect per call-tree node wider than 0.05 %. */
function flameSvg(profile, title) {
  const { byId, self } = nodesOf(profile);
  const totalOf = new Map();
  const sum = (id) => {
    if (totalOf.has(id)) return totalOf.get(id);
    const n = byId.get(id);
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += sum(c);
    totalOf.set(id, t);
    return t;
  };
  const root = profile.nodes[0].id;
  const all = sum(root);
  const W = 1600, H = 16;
  const rects = [];
  let depthMax = 0;
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const walk = (id, x, depth) => {
    const t = totalOf.get(id);
    const w = (t / all) * W;
    if (w < W * 0.0005) return;
    depthMax = Math.max(depthMax, depth);
    const n = byId.get(id);
    const l = label(n.callFrame);
    const hue = /node_modules/.test(n.callFrame.url) ? 30 : /^node:/.test(n.callFrame.url) ? 200 : /(libs|apps)\//.test(n.callFrame.url) ? 110 : 0;
    const fill = `hsl(${hue},${hue === 0 ? 0 : 70}%,${60 + (l.length % 20)}%)`;
    const text = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${depth * H + 12 + 30}" font-size="11">${esc(l.slice(0, Math.floor(w / 6.5)))}</text>` : '';
    rects.push(`<g><title>${esc(l)} ${((t / all) * 100).toFixed(2)} %</title><rect x="${x.toFixed(1)}" y="${depth * H + 30}" width="${w.toFixed(1)}" height="${H - 1}" fill="${fill}"/>${text}</g>`);
    let cx = x;
    for (const c of byId.get(id).children ?? []) {
      walk(c, cx, depth + 1);
      cx += (totalOf.get(c) / all) * W;
    }
  };
  walk(root, 0, 0);
  const height = (depthMax + 1) * H + 40;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="monospace"><text x="4" y="18" font-size="14">${esc(title)} (orange: node_modules, green: our code, blue: node internals, grey: V8/native; hover for names)</text>${rects.join('')}</svg>\n`;
}

module.exports = { summarize, flameSvg };

if (require.main === module) {
  const args = process.argv.slice(2);
  const svgAt = args.indexOf('--svg');
  const svg = svgAt >= 0 ? args.splice(svgAt, 2)[1] : undefined;
  const profile = JSON.parse(readFileSync(args[0], 'utf8'));
  console.log(summarize(profile, Number(args[1] ?? 40)));
  if (svg) writeFileSync(svg, flameSvg(profile, args[0]));
}
