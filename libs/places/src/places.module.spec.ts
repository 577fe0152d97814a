import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@lookup/shared/config';
import { tempDir } from '@lookup/shared/testing';
import { PlacesModule } from './places.module';
import { PLACES_SEARCH_THREADS, SearchThreads } from './search/search-threads';

/**
 * The places module of the standalone profile: its start returns once the search threads have
 * loaded, so the HTTP server (which listens after it) never hands a user's first search to a
 * thread still loading. Without sample data the start itself is short: the threads' load is
 * what it waits for.
 */
describe('PlacesModule (standalone, SQLite)', () => {
  const dir = tempDir('places-module-');
  afterAll(() => dir.remove());

  it('has loaded its search threads when its start returns', async () => {
    const config = loadConfig({}, { PROFILE: 'standalone', DATA_DIR: dir.path, SAMPLE_DATA: 'false', SEARCH_THREADS: '2', LOG_LEVEL: 'error' });
    // Creating the context runs the start (the modules' bootstrap hooks).
    const module = await NestFactory.createApplicationContext(PlacesModule.forRoot({ config }), { logger: false });
    try {
      const threads = module.get<SearchThreads | null>(PLACES_SEARCH_THREADS, { strict: false });
      const each = (threads as unknown as { threads: Array<{ isLoaded: boolean }> }).threads;
      expect(each.map((t) => t.isLoaded)).toEqual([true, true]);
    } finally {
      await module.close();
    }
  });
});
