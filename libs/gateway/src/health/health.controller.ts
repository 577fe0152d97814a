import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { IMPORT_STATUS, ImportStatusReader, readImportStatus } from '@lookup/shared/runtime';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { TRANSPORT_CLIENT, TransportClient } from '@lookup/shared/transport';
import { Public } from '../http/public.decorator';
import { READINESS_CHECKS, ReadinessCheck, runChecks, transportConnectionCheck } from './readiness';

/**
 * `/health`: liveness (the process answers). `/health/ready`: the stores answer and the
 * transport's connection (NATS) has not been down for longer than a restart takes.
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  private readonly checks: ReadinessCheck[];

  constructor(
    @Inject(READINESS_CHECKS) checks: ReadinessCheck[],
    @Inject(TRANSPORT_CLIENT) transport: TransportClient,
    private readonly modules: ModuleRef,
  ) {
    const connection = transportConnectionCheck(transport);
    this.checks = connection ? [connection, ...checks] : checks;
  }

  /** The live datasets when the places module runs in this process (standalone); the places app shows them otherwise. */
  private importStatus(): ImportStatusReader | null {
    try {
      return this.modules.get<ImportStatusReader>(IMPORT_STATUS, { strict: false });
    } catch {
      return null;
    }
  }

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const result = await runChecks(this.checks);
    const imports = this.importStatus();
    void reply.status(result.status === 'ok' ? 200 : 503).send(imports ? { ...result, datasets: await readImportStatus(imports) } : result);
  }
}
