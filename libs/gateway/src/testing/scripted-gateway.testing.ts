import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@lookup/contracts';
import { AppConfig } from '@lookup/shared/config';
import { TransportClient } from '@lookup/shared/transport';
import { createGatewayApp } from '../bootstrap';

/**
 * The services behind the gateway, scripted: answers after `delayMs`, or fails the way it is
 * told. For tests of what the gateway decides alone (keys, quotas, rate limits), where the
 * services' own answers do not matter.
 */
export class ScriptedServices implements TransportClient {
  calls = 0;
  delayMs = 0;
  fail: DomainError | null = null;

  async request<T>(subject: string): Promise<T> {
    this.calls++;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.fail) throw this.fail;
    return [{ subject }] as T;
  }

  async close(): Promise<void> {}
}

export interface RunningGateway {
  app: NestFastifyApplication;
  base: string;
  services: ScriptedServices;
}

/** A gateway app on a free loopback port in front of scripted services. */
export async function startScriptedGateway(config: AppConfig, services = new ScriptedServices()): Promise<RunningGateway> {
  const app = await createGatewayApp(config, services);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  return { app, base: `http://127.0.0.1:${port}`, services };
}
