import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/public.decorator';
import { READINESS_CHECKS, ReadinessCheck, runChecks } from './readiness';

/** `/health`: liveness (the process answers). `/health/ready`: the transport and stores answer. */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

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
