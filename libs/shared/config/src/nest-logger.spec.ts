import { Logger } from '@nestjs/common';
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

  it('is off when silent', () => {
    expect(nestLogger(loadConfig({ LOG_LEVEL: 'silent' }, { PROFILE: 'standalone' }))).toBe(false);
    expect(printed('silent', lines)).toBe('');
  });
});
