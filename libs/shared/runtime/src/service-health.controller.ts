import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

export const SERVICE_READINESS = Symbol('SERVICE_READINESS');
export type ServiceReadiness = () => Promise<void>;

/** Probes for a service app: liveness, and readiness = its store answers. */
@Controller('health')
export class ServiceHealthController {
  constructor(@Inject(SERVICE_READINESS) private readonly ready: ServiceReadiness) {}

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async readiness(@Res() reply: FastifyReply): Promise<void> {
    try {
      await this.ready();
      void reply.status(200).send({ status: 'ok' });
    } catch (err) {
      void reply.status(503).send({ status: 'unavailable', error: (err as Error).message });
    }
  }
}
