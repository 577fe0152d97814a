import { Controller, Get, Inject, Res } from '@nestjs/common';
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

  constructor(@Inject(READINESS_CHECKS) checks: ReadinessCheck[], @Inject(TRANSPORT_CLIENT) transport: TransportClient) {
    const connection = transportConnectionCheck(transport);
    this.checks = connection ? [connection, ...checks] : checks;
  }

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const result = await runChecks(this.checks);
    void reply.status(result.status === 'ok' ? 200 : 503).send(result);
  }
}
