import { ConsoleLogger, LoggerService } from '@nestjs/common';
import { AppConfig, nestLogLevels } from './app-config';

/**
 * Nest's own start-up chatter: a line per module initialised and per route mapped (about 70 in the
 * standalone app), which buried the one line a first start must show (the new API key).
 */
const START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestMicroservice']);

/** Nest's console logger with its start-up lines at `debug` (`LOG_LEVEL=debug` shows them). */
export class StartUpQuietLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest.length ? rest[rest.length - 1] : this.context;
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      super.debug(message, ...rest);
      return;
    }
    super.log(message, ...rest);
  }
}

/** The logger for an app of LOG_LEVEL (false when silent). */
export function nestLogger(config: AppConfig): LoggerService | false {
  const levels = nestLogLevels(config);
  return levels ? new StartUpQuietLogger({ logLevels: levels }) : false;
}
