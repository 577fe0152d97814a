import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer, Server, Socket } from 'node:net';
import { EmailCheckResult, Services } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { NatsTransportClient } from '@lookup/shared/transport';
import { createServiceApp } from '@lookup/shared/runtime';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { createTestSchema, describeWith, serverUrl, uniqueName } from '@lookup/shared/testing';
import { UtilsServiceModule } from '../utils.module';
import { LoopbackDnsServer } from './loopback-dns.testing';
import { LoopbackSmtpServer } from './loopback-smtp.testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

type EmailSdk = { emailUtil: { validate(params: Record<string, unknown>): Promise<EmailCheckResult> } };

/**
 * Distributed profile: gateway (keys and quotas on PostgreSQL) -> NATS -> utils service app ->
 * loopback DNS and SMTP. The transport timeout is short on purpose: a mail server that never
 * answers must still produce a verdict (`unknown`) before the gateway would give up with a 504.
 */
describeWith(['postgres', 'nats'], 'e-mail check, distributed (official Node client)', () => {
  const dns = new LoopbackDnsServer({
    'example.test': { mx: [{ exchange: 'mx.example.test', priority: 10 }] },
    'mx.example.test': { a: ['127.0.0.1'] },
    'silent.test': { mx: [{ exchange: 'mx.silent.test', priority: 10 }] },
    'mx.silent.test': { a: ['127.0.0.3'] },
  });
  const smtp = new LoopbackSmtpServer({ mailboxes: { 'alice@example.test': 'accept' } });
  let silent: Server;
  const silentSockets = new Set<Socket>();
  let gateway: NestFastifyApplication;
  let utils: INestApplication | undefined;
  let transport: NatsTransportClient;
  let dropSchema: () => Promise<void>;
  let port: number;
  let keys: ApiKeyService;
  const key = 'email-distributed-key';
  const client = (k = key) => new Swiftyper(k, { host: '127.0.0.1', port, protocol: 'http' }) as EmailSdk;

  beforeAll(async () => {
    const dnsServer = await dns.start();
    const smtpPort = await smtp.start();
    silent = createServer((s) => (silentSockets.add(s), s.on('close', () => silentSockets.delete(s))));
    await new Promise<void>((resolve) => silent.listen(smtpPort, '127.0.0.3', resolve));
    const pg = await createTestSchema('email');
    dropSchema = pg.drop;
    const config = loadConfig(
      {},
      {
        PROFILE: 'distributed',
        HOST: '127.0.0.1',
        PORT: 0,
        LOG_LEVEL: 'error',
        SEED_API_KEY: key,
        DATABASE_URL: pg.url,
        DATABASE_SCHEMA: pg.schema,
        NATS_URL: serverUrl('nats'),
        NATS_SUBJECT_PREFIX: uniqueName('email'),
        TRANSPORT_TIMEOUT_MS: 6000,
        EMAIL_CHECK_TIMEOUT_MS: 60000, // clamped to 5500 by the transport timeout
        EMAIL_SMTP_TIMEOUT_MS: 60000,
        EMAIL_SMTP_PORT: smtpPort,
        EMAIL_SMTP_ALLOWED_CIDRS: '127.0.0.0/8', // the loopback SMTP server is not public
        EMAIL_DNS_SERVERS: dnsServer,
        EMAIL_HELO_NAME: 'probe.example.org',
      },
    );
    utils = await createServiceApp(UtilsServiceModule.forRoot({ config }), config, Services.utils);
    transport = await NatsTransportClient.connect({ url: config.NATS_URL, prefix: config.NATS_SUBJECT_PREFIX, name: 'gateway-email-e2e', timeoutMs: config.TRANSPORT_TIMEOUT_MS });
    gateway = await createGatewayApp(config, transport);
    await gateway.listen(0, '127.0.0.1');
    port = (gateway.getHttpServer().address() as { port: number }).port;
    keys = gateway.get(ApiKeyService);
  });

  afterAll(async () => {
    await gateway?.close();
    await transport?.close();
    await utils?.close();
    for (const s of silentSockets) s.destroy();
    await new Promise((r) => silent?.close(r));
    await Promise.all([dns.stop(), smtp.stop()]);
    await dropSchema?.();
  });

  it('checks a mailbox through the gateway and the utils app', async () => {
    const r = await client().emailUtil.validate({ email: 'alice@example.test' });
    expect(r).toMatchObject({ email: 'alice@example.test', reachable: 'safe', mxValid: true, connection: true, deliverable: true, catchAll: false });
    expect(smtp.sessions.at(-1)).toMatchObject({ secure: true, heloName: 'probe.example.org' });
  });

  it('a mail server that never answers is `unknown` within the transport timeout, not a 504', async () => {
    const t0 = Date.now();
    const r = await client().emailUtil.validate({ email: 'bob@silent.test' });
    expect(r).toMatchObject({ reachable: 'unknown', mxValid: true, connection: false });
    expect(Date.now() - t0).toBeLessThan(6000);
  });

  it('counts each check against the key\'s monthly query limit in PostgreSQL', async () => {
    const limited = (await keys.create({ name: 'email-quota', monthlyQueryLimit: 1 })).key;
    await client(limited).emailUtil.validate({ email: 'alice@example.test' });
    const spent = await client(limited).emailUtil.validate({ email: 'alice@example.test' }).then(
      () => null,
      (e: { rawType: string; statusCode: number }) => e,
    );
    expect(spent).toMatchObject({ rawType: 'over_query_limit', statusCode: 400 });
  });
});
