import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from './app-config';
import { nestLogger } from './nest-logger';

/** What Nest's static Logger prints through our logger at a LOG_LEVEL. */
function printed(level: string, lines: Array<[string, string]>): string {
  const out: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  const logger = nestLogger(loadConfig({ LOG_LEVEL: level }, { PROFILE: 'standalone' }));
  try {
    Logger.overrideLogger(logger);
    for (const [context, message] of lines) new Logger(context).log(message);
  } finally {
    Logger.overrideLogger(false);
    write.mockRestore();
  }
  return out.join('');
}

describe('nestLogger', () => {
  const lines: Array<[string, string]> = [
    ['InstanceLoader', 'GatewayModule dependencies initialized'],
    ['RouterExplorer', 'Mapped {/v1/places/query, POST} route'],
    ['RoutesResolver', 'PlacesSearchController {/v1/places}:'],
    ['NestFactory', 'Starting Nest application...'],
    ['PlacesData', 'CZ: 3 regions, 3 counties, 7 municipalities (bundled sample)'],
  ];

  it("at info, keeps Nest's start-up chatter (a line per module and route) out and our own lines in", () => {
    const out = printed('info', lines);
    expect(out).toContain('CZ: 3 regions, 3 counties');
    expect(out).not.toMatch(/dependencies initialized|Mapped \{|PlacesSearchController|Starting Nest/);
  });

  it('at debug, shows the start-up lines too', () => {
    const out = printed('debug', lines);
    for (const [, message] of lines) expect(out).toContain(message);
  });

  it('is off when silent: an app built with it prints nothing, not even errors, where at `error` it prints them', async () => {
    @Injectable()
    class Noisy implements OnModuleInit {
      onModuleInit(): void {
        new Logger('Noisy').error('an error line');
        new Logger('Noisy').warn('a warning line');
        new Logger('Noisy').log('an info line');
      }
    }
    @Module({ providers: [Noisy] })
    class NoisyModule {}
    const run = async (level: string): Promise<string> => {
      const out: string[] = [];
      const capture = (chunk: string | Uint8Array) => (out.push(String(chunk)), true);
      const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
      try {
        const app = await NestFactory.createApplicationContext(NoisyModule, { logger: nestLogger(loadConfig({ LOG_LEVEL: level }, { PROFILE: 'standalone' })) });
        await app.close();
      } finally {
        stdout.mockRestore();
        stderr.mockRestore();
        Logger.overrideLogger(false);
      }
      return out.join('');
    };
    const atError = await run('error');
    expect(atError).toContain('an error line');
    expect(atError).not.toMatch(/a warning line|an info line/);
    expect(await run('silent')).toBe('');
  });
});
