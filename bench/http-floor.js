// The machine's floor for any HTTP API: a bare node:http server answering a constant, in this
// process, and the same keep-alive client as bench/search-latency.ts in a child process, at
// concurrency 1 and 32 (5 000 requests each). What no gateway on this machine can beat.
//   node bench/http-floor.js [--busy <ms>] [--concurrency 1,32,32]
// --busy: the server works (a busy loop) that long before each answer. On this machine (a VM)
// an answer written after a pause of a millisecond or more costs more than one written at once:
// the client's idle vCPU has to be woken, inside the server's write. The difference between
// --busy 1 and --busy 0, less 1 ms, is that cost, which every slower route pays and /health does not.
const http = require('node:http');
const { spawn } = require('node:child_process');
if (process.argv[2] === '--client') {
  const [port, c, n] = process.argv.slice(3).map(Number);
  const agent = new http.Agent({ keepAlive: true, maxSockets: c });
  const one = () => new Promise((res, rej) => { const r = http.request({ host: '127.0.0.1', port, path: '/health', agent }, (s) => { s.resume(); s.on('end', res); }); r.on('error', rej); r.end(); });
  (async () => {
    const times = []; let i = 0; const t0 = process.hrtime.bigint();
    await Promise.all(Array.from({ length: c }, async () => { while (i++ < n) { const s = process.hrtime.bigint(); await one(); times.push(Number(process.hrtime.bigint() - s) / 1e6); } }));
    const sec = Number(process.hrtime.bigint() - t0) / 1e9; times.sort((a, b) => a - b);
    const p = (x) => times[Math.floor(times.length * x)].toFixed(2);
    console.log(JSON.stringify({ c, p50: p(0.5), p95: p(0.95), p99: p(0.99), rps: Math.round(times.length / sec) })); agent.destroy();
  })();
} else {
  const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
  const busy = Number(arg('--busy', '0'));
  const server = http.createServer((req, res) => {
    const until = performance.now() + busy;
    while (performance.now() < until);
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"ok"}');
  });
  server.listen(0, '127.0.0.1', async () => {
    const port = server.address().port;
    for (const c of arg('--concurrency', '1,32,32').split(',').map(Number)) await new Promise((r) => spawn(process.execPath, [__filename, '--client', port, c, 5000], { stdio: 'inherit' }).on('exit', r));
    server.close();
  });
}
