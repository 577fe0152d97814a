import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { loadAll(text: string): unknown[]; load(text: string): unknown };

const ROOT = resolve(__dirname, '..', '..');
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Apps that run as long-lived processes: those with a `main.ts` (standalone is the other profile). */
const LONG_RUNNING = readdirSync(join(ROOT, 'apps')).filter((a) => a !== 'standalone' && existsSync(join(ROOT, 'apps', a, 'src', 'main.ts')));

function k8sObjects(): Obj[] {
  const kustomization = yaml.load(readFileSync(join(ROOT, 'k8s/kustomization.yaml'), 'utf8')) as Obj;
  return (kustomization['resources'] as string[]).flatMap((f) => yaml.loadAll(readFileSync(join(ROOT, 'k8s', f), 'utf8')) as Obj[]).filter(Boolean);
}

function envOf(container: Obj): Record<string, string> {
  return Object.fromEntries((container['env'] ?? []).filter((e: Obj) => 'value' in e).map((e: Obj) => [e['name'], String(e['value'])]));
}

/** The deployment files must follow the code: every app deployed, probes on the port it listens on. */
describe('deployment manifests', () => {
  const objects = k8sObjects();
  const byKind = (kind: string) => objects.filter((o) => o['kind'] === kind);

  it('deploys every long-running app with probes, resources and a graceful stop', () => {
    expect(LONG_RUNNING).toEqual(expect.arrayContaining(['gateway', 'places']));
    for (const app of LONG_RUNNING) {
      const dep = byKind('Deployment').find((d) => d['metadata']['name'] === app);
      expect([app, dep !== undefined]).toEqual([app, true]);
      const c = dep!['spec']['template']['spec']['containers'][0] as Obj;
      const env = envOf(c);
      expect([app, env['APP']]).toEqual([app, app]);
      const port = Number(env['PORT']);
      expect(c['ports'][0]['containerPort']).toBe(port);
      expect(c['livenessProbe']['httpGet']['path']).toBe('/health');
      expect(c['readinessProbe']['httpGet']['path']).toBe('/health/ready');
      expect(c['resources']['requests']['cpu']).toBeDefined();
      expect(c['resources']['limits']['memory']).toBeDefined();
      expect(c['lifecycle']['preStop']).toBeDefined();
      expect(dep!['spec']['template']['spec']['terminationGracePeriodSeconds']).toBeGreaterThanOrEqual(15);
      expect(dep!['spec']['template']['metadata']['annotations']['prometheus.io/path']).toBe('/metrics');
      const svc = byKind('Service').find((s) => s['metadata']['name'] === app);
      expect(svc?.['spec']['ports'][0]['port']).toBe(port);
    }
  });

  it('autoscales the gateway and places, and runs NATS and OpenSearch as StatefulSets', () => {
    expect(byKind('HorizontalPodAutoscaler').map((h) => h['spec']['scaleTargetRef']['name']).sort()).toEqual(['gateway', 'places']);
    const sets = byKind('StatefulSet').map((s) => s['metadata']['name']);
    expect(sets).toEqual(expect.arrayContaining(['nats', 'opensearch']));
    const nats = byKind('StatefulSet').find((s) => s['metadata']['name'] === 'nats')!;
    expect(nats['spec']['template']['spec']['containers'][0]['args']).toContain('-js');
    expect(nats['spec']['volumeClaimTemplates']).toHaveLength(1);
  });

  it('runs NATS as a 3-node cluster: a full mesh of routes on stable names, clustered JetStream, one node down at a time', () => {
    const nats = byKind('StatefulSet').find((s) => s['metadata']['name'] === 'nats')!;
    const replicas = nats['spec']['replicas'] as number;
    expect(replicas).toBeGreaterThanOrEqual(3);
    const args = nats['spec']['template']['spec']['containers'][0]['args'] as string[];
    const arg = (flag: string) => args[args.indexOf(flag) + 1];
    expect(arg('--cluster_name')).toBeTruthy();
    expect(arg('--cluster')).toMatch(/:6222$/);
    // Each node's unique server name (JetStream in a cluster needs it).
    expect(arg('--name')).toBe('$(POD_NAME)');
    const headless = nats['spec']['serviceName'] as string;
    const routes = arg('--routes').split(',');
    expect(routes).toEqual(Array.from({ length: replicas }, (_, i) => `nats://nats-${i}.${headless}.lookup.svc:6222`));
    const svc = byKind('Service').find((s) => s['metadata']['name'] === headless)!;
    expect(svc['spec']['clusterIP']).toBe('None');
    expect(svc['spec']['publishNotReadyAddresses']).toBe(true);
    expect((svc['spec']['ports'] as Obj[]).map((p) => p['port'])).toContain(6222);
    const pdb = byKind('PodDisruptionBudget').find((p) => p['spec']['selector']['matchLabels']['app'] === 'nats')!;
    expect(pdb['spec']['maxUnavailable']).toBe(1);
  });

  it('runs OpenSearch as a 3-node cluster on stable names, one node down at a time, every node in OPENSEARCH_URL', () => {
    const os = byKind('StatefulSet').find((s) => s['metadata']['name'] === 'opensearch')!;
    const replicas = os['spec']['replicas'] as number;
    expect(replicas).toBeGreaterThanOrEqual(3);
    const env = envOf(os['spec']['template']['spec']['containers'][0]);
    expect(env['discovery.type']).toBeUndefined();
    const headless = os['spec']['serviceName'] as string;
    const pods = Array.from({ length: replicas }, (_, i) => `opensearch-${i}`);
    expect(env['cluster.initial_cluster_manager_nodes'].split(',')).toEqual(pods);
    expect(env['discovery.seed_hosts']).toBe(`${headless}.lookup.svc`);
    const svc = byKind('Service').find((s) => s['metadata']['name'] === headless)!;
    expect([svc['spec']['clusterIP'], svc['spec']['publishNotReadyAddresses']]).toEqual(['None', true]);
    expect((svc['spec']['ports'] as Obj[]).map((p) => p['port'])).toContain(9300);
    const pdb = byKind('PodDisruptionBudget').find((p) => p['spec']['selector']['matchLabels']['app'] === 'opensearch')!;
    expect(pdb['spec']['maxUnavailable']).toBe(1);
    const config = byKind('ConfigMap').find((c) => c['data']?.['OPENSEARCH_URL'])!;
    expect(config['data']['OPENSEARCH_URL'].split(',')).toEqual(pods.map((p) => `http://${p}.${headless}.lookup.svc:9200`));
  });

  it("keeps the gateway's readiness on /health/ready, which fails when NATS stays unreachable", () => {
    const gw = byKind('Deployment').find((d) => d['metadata']['name'] === 'gateway')!;
    const probe = gw['spec']['template']['spec']['containers'][0]['readinessProbe'] as Obj;
    // The check behind it: libs/gateway/src/health/readiness.spec.ts.
    expect(probe['httpGet']['path']).toBe('/health/ready');
  });

  it('runs the PostgreSQL migrations as a Job through an entry point that exists', () => {
    const job = byKind('Job').find((j) => j['metadata']['name'] === 'lookup-migrate')!;
    const cmd = job['spec']['template']['spec']['containers'][0]['command'] as string[];
    const entry = cmd.find((a) => a.startsWith('dist/'))!;
    expect(existsSync(join(ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('puts into the image the files the apps read at run time', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('apps/gateway/src/demo');
    expect(dockerfile).toContain("-path '*/src/fixtures'");
    expect(dockerfile).toMatch(/exec node -r \.\/tools\/paths\.js dist\/apps\/\$\{APP\}\/src\/main\.js/);
  });

  it('keeps docker-compose.yml valid and in step with the apps and ports', () => {
    const compose = yaml.load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as Obj;
    const services = compose['services'] as Obj;
    for (const app of LONG_RUNNING) {
      expect([app, services[app]?.['environment']?.['APP']]).toEqual([app, app]);
      const port = services[app]['environment']['PORT'];
      expect(JSON.stringify(services[app]['healthcheck']['test'])).toContain(`127.0.0.1:${port}/health/ready`);
      const dep = byKind('Deployment').find((d) => d['metadata']['name'] === app)!;
      expect([app, envOf(dep['spec']['template']['spec']['containers'][0])['PORT']]).toEqual([app, port]);
    }
    expect(services['migrate']['command']).toContain('dist/apps/gateway/src/migrate.js');
    // NATS as a cluster of three, each routing to all, with its own name and store.
    const natsNodes = Object.keys(services).filter((n) => /^nats(-\d+)?$/.test(n));
    expect(natsNodes).toHaveLength(3);
    const names = natsNodes.map((n) => {
      const cmd = services[n]['command'] as string[];
      expect([n, cmd[cmd.indexOf('--routes') + 1].split(',').sort()]).toEqual([n, natsNodes.map((m) => `nats://${m}:6222`).sort()]);
      return cmd[cmd.indexOf('--name') + 1];
    });
    expect(new Set(names).size).toBe(3);
    expect(new Set(natsNodes.map((n) => String(services[n]['volumes']))).size).toBe(3);
    // OpenSearch as a cluster of three, each node named, all of them in the apps' OPENSEARCH_URL.
    const osNodes = Object.keys(services).filter((n) => /^opensearch(-\d+)?$/.test(n));
    expect(osNodes).toHaveLength(3);
    expect(osNodes.map((n) => services[n]['environment']['node.name'])).toEqual(osNodes);
    expect(new Set(osNodes.map((n) => String(services[n]['volumes']))).size).toBe(3);
    for (const n of osNodes) expect(String(services[n]['environment']['cluster.initial_cluster_manager_nodes']).split(',').sort()).toEqual([...osNodes].sort());
    expect(String(compose['x-app']['environment']['OPENSEARCH_URL']).split(',')).toEqual(osNodes.map((n) => `http://${n}:9200`));
    const bin = ['/usr/bin/docker-compose', '/usr/local/bin/docker-compose'].find((p) => existsSync(p));
    if (bin) execFileSync(bin, ['-f', join(ROOT, 'docker-compose.yml'), 'config', '-q'], { cwd: ROOT, stdio: 'pipe', timeout: 30000 });
  });
});
