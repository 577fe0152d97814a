import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { IMPORT_STATUS, ImportStatusReader, readImportStatus } from './import-status';

export const SERVICE_READINESS = Symbol('SERVICE_READINESS');
export type ServiceReadiness = () => Promise<void>;

/** Probes for a service app: liveness, and readiness = its store answers. */
@Controller('health')
export class ServiceHealthController {
  constructor(
    @Inject(SERVICE_READINESS) private readonly ready: ServiceReadiness,
    /** The places and indexer apps: the live datasets, shown as `datasets` (never decides readiness). */
    @Optional() @Inject(IMPORT_STATUS) private readonly imports?: ImportStatusReader,
  ) {}

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async readiness(@Res() reply: FastifyReply): Promise<void> {
    try {
      await this.ready();
      void reply.status(200).send({ status: 'ok', ...(this.imports ? { datasets: await readImportStatus(this.imports) } : {}) });
    } catch (err) {
      void reply.status(503).send({ status: 'unavailable', error: (err as Error).message });
    }
  }
}
