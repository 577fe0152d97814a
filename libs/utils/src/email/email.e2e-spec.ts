import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EmailCheckResult } from '@lookup/contracts';
import { loadConfig } from '@lookup/shared/config';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer } from '@lookup/shared/transport';
import { ApiKeyService, createGatewayApp } from '@lookup/gateway';
import { errorOf, post, tempDir } from '@lookup/shared/testing';
import { UtilsModule } from '../utils.module';
import { LoopbackDnsServer } from './loopback-dns.testing';
import { LoopbackSmtpServer } from './loopback-smtp.testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Swiftyper = require('swiftyper-node');

type EmailSdk = { emailUtil: { validate(params: Record<string, unknown>): Promise<EmailCheckResult> } };
type SdkError = { type: string; rawType: string; statusCode: number; param: string | null; headers: Record<string, string> };

/** The spec's E-mail check result fields, in its order. */
const RESULT_FIELDS = [
  'email_id', 'email', 'username', 'domain', 'reachable', 'disposable', 'roleAccount', 'mxValid',
  'connection', 'inboxFull', 'catchAll', 'deliverable', 'disabled', 'free', 'took',
];

async function sdkError(p: Promise<unknown>): Promise<SdkError> {
  try {
    await p;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

/**
 * The standalone profile (gateway + in-process bus + the utils area, which wires the e-mail check
 * in), driven through the official Node client; the mail world is a real DNS and a real SMTP
 * server on loopback.
 */
describe('POST /v1/utils/email/validate (standalone, official Node client)', () => {
  const dir = tempDir();
  const dns = new LoopbackDnsServer({
    'example.test': { mx: [{ exchange: 'mx.example.test', priority: 10 }] },
    'mx.example.test': { a: ['127.0.0.1'] },
  });
  const smtp = new LoopbackSmtpServer({
    mailboxes: {
      'alice@example.test': 'accept',
      'full@example.test': { code: 552, message: '5.2.2 Mailbox full' },
    },
  });
  let app: NestFastifyApplication;
  let baseUrl: string;
  let port: number;
  let keys: ApiKeyService;
  const key = 'email-e2e-key';
  const client = (k: string | undefined = key) => new Swiftyper(k, { host: '127.0.0.1', port, protocol: 'http' }) as EmailSdk;

  beforeAll(async () => {
    const dnsServer = await dns.start();
    const smtpPort = await smtp.start();
    const config = loadConfig(
      {},
      {
        PROFILE: 'standalone',
        DATA_DIR: dir.path,
        HOST: '127.0.0.1',
        PORT: 0,
        LOG_LEVEL: 'error',
        SEED_API_KEY: key,
        SAMPLE_DATA: false,
        EMAIL_SMTP_PORT: smtpPort,
        EMAIL_SMTP_ALLOWED_CIDRS: '127.0.0.0/8', // the loopback SMTP server is not public
        EMAIL_DNS_SERVERS: dnsServer,
        // Generous: the probe shares one process (and two shared cores) with the test SMTP server
        // and the utils area's start-up work; timeouts are tested in email-check.int-spec.ts.
        TRANSPORT_TIMEOUT_MS: 30000,
        EMAIL_CHECK_TIMEOUT_MS: 25000,
        EMAIL_SMTP_TIMEOUT_MS: 10000,
        EMAIL_DNS_TIMEOUT_MS: 5000,
        EMAIL_HELO_NAME: 'probe.example.org',
      },
    );
    // As apps/standalone composes it (an app cannot be imported from a lib): gateway + utils area on the in-process bus.
    const bus = new InProcessBus();
    app = await createGatewayApp(config, new InProcessTransportClient(bus, config.TRANSPORT_TIMEOUT_MS), [UtilsModule.forRoot({ config })]);
    app.connectMicroservice({ strategy: new InProcessTransportServer(bus) }, { inheritAppConfig: false });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    baseUrl = `http://127.0.0.1:${port}`;
    keys = app.get(ApiKeyService);
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([dns.stop(), smtp.stop()]);
    dir.remove();
  });

  it('emailUtil.validate answers with exactly the spec fields, in order', async () => {
    const r = await client().emailUtil.validate({ email: 'alice@example.test' });
    expect(Object.keys(r)).toEqual(RESULT_FIELDS);
    expect(r).toMatchObject({ email: 'alice@example.test', username: 'alice', domain: 'example.test', reachable: 'safe', mxValid: true, connection: true, deliverable: true });
    expect(typeof r.took).toBe('number');
  });

  it('a full inbox is risky and an unknown mailbox invalid, through the client', async () => {
    expect(await client().emailUtil.validate({ email: 'full@example.test' })).toMatchObject({ reachable: 'risky', inboxFull: true });
    expect(await client().emailUtil.validate({ email: 'nobody@example.test' })).toMatchObject({ reachable: 'invalid', deliverable: false });
  });

  it('takes the form body the PHP client sends, with the key in a header and __req ignored', async () => {
    const r = await post<EmailCheckResult>(baseUrl, '/v1/utils/email/validate', 'email=alice%40example.test&__req=3', { headers: { 'X-Swiftyper-Api-Key': key } });
    expect(r.status).toBe(200);
    expect(r.body.reachable).toBe('safe');
  });

  it('refuses bad parameters by name, as the client\'s own error classes', async () => {
    const missing = await sdkError(client().emailUtil.validate({}));
    expect([missing.type, missing.statusCode, missing.param]).toEqual(['SwiftyperMissingParameterError', 400, 'email']);
    const nested = await sdkError(client().emailUtil.validate({ email: { a: 'b' } }));
    expect([nested.type, nested.param]).toEqual(['SwiftyperInvalidParameterError', 'email']);
    const tooLong = await sdkError(client().emailUtil.validate({ email: `${'a'.repeat(600)}@example.test` }));
    expect([tooLong.type, tooLong.param]).toEqual(['SwiftyperInvalidParameterError', 'email']);
    const extra = await sdkError(client().emailUtil.validate({ email: 'alice@example.test', mode: 'fast' }));
    expect([extra.type, extra.param]).toEqual(['SwiftyperUnexpectedParameterError', 'mode']);
    const noKey = await post(baseUrl, '/v1/utils/email/validate', { email: 'alice@example.test' });
    expect(errorOf(noKey)).toMatchObject({ status: 400, type: 'missing' });
  });

  it('a syntactically broken address is an answer (invalid), not an error', async () => {
    const r = await client().emailUtil.validate({ email: 'no-at-sign' });
    expect(r).toMatchObject({ reachable: 'invalid', mxValid: false, username: 'no-at-sign', domain: '' });
  });

  it('is described in the OpenAPI document with its result fields', async () => {
    const api = (await (await fetch(`${baseUrl}/docs/openapi.json`)).json()) as {
      paths: Record<string, { post?: unknown }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(api.paths['/v1/utils/email/validate']?.post).toBeDefined();
    expect(Object.keys(api.components.schemas['EmailCheckResult'].properties)).toEqual(RESULT_FIELDS);
  });

  it('each check counts against the monthly query limit; refused parameters do not', async () => {
    const limited = (await keys.create({ name: 'email-quota', monthlyQueryLimit: 2 })).key;
    await sdkError(client(limited).emailUtil.validate({})); // invalid: not metered
    await client(limited).emailUtil.validate({ email: 'alice@example.test' });
    await client(limited).emailUtil.validate({ email: 'nobody@example.test' });
    const spent = await sdkError(client(limited).emailUtil.validate({ email: 'alice@example.test' }));
    expect([spent.type, spent.rawType, spent.statusCode]).toEqual(['SwiftyperQuotaError', 'over_query_limit', 400]);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
  });
});
