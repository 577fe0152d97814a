import { ChildProcess } from 'node:child_process';
import { connect, NatsConnection } from 'nats';
import { loadConfig, projectRoot } from '@lookup/shared/config';
import { createOpenSearchClient } from '@lookup/shared/search';
import { describeWith, describeWithData, ensureBuilt, freePortRange, serverUrl, sharedData, tempDir, uniqueName } from '@lookup/shared/testing';
import { isDatasetCommand, runDatasetImport } from './cli/dataset-import';
import { runImport } from './import.command';
import { datasetSubjects } from './datasets/datasets.constants';
import { readmeImportCommands, withFiles } from './testing/readme-commands';
import { spawnIndexer, stopIndexer } from './testing/indexer-process';
import { expectRealSkAnswers } from './testing/sk-answers';

const SK_DAVKY = sharedData('sk/davky.zip');
const SK_CHANGE = sharedData('sk/zmenovadavka5156536.xml');
const SK_GEONAMES = sharedData('geonames/SK.txt');

describeWith(['nats', 'opensearch'], 'README import commands, distributed', () => {
  describeWithData([SK_DAVKY, SK_CHANGE, SK_GEONAMES], 'the real SK files: the catalogue by the CLI, the addresses and the change batch through the indexer app (--wait)', () => {
    const dir = tempDir('readme-sk-distributed-');
    const prefix = uniqueName('rsk');
    const config = loadConfig({}, { PROFILE: 'distributed', NATS_URL: serverUrl('nats'), NATS_SUBJECT_PREFIX: prefix, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path });
    const output: string[] = [];
    let indexer: ChildProcess | undefined;
    let nc: NatsConnection;

    beforeAll(async () => {
      ensureBuilt(projectRoot(), ['dist/apps/indexer/src/main.js']);
      const [port] = [await freePortRange(1)];
      indexer = spawnIndexer(
        { PORT: String(port), NATS_URL: serverUrl('nats'), NATS_SUBJECT_PREFIX: prefix, OPENSEARCH_URL: serverUrl('opensearch'), INDEX_PREFIX: prefix, DATA_DIR: dir.path, LOG_LEVEL: 'warn' },
        output,
      );
      nc = await connect({ servers: serverUrl('nats') });
      // The indexer creates the stream; the CLI refuses to publish before.
      const jsm = await nc.jetstreamManager();
      for (const end = Date.now() + 60000; !(await jsm.streams.info(datasetSubjects(prefix).stream).then(() => true, () => false)); ) {
        if (Date.now() > end || indexer.exitCode !== null) throw new Error(`the indexer did not create its stream: ${output.slice(-20).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 120000);

    afterAll(async () => {
      if (indexer) await stopIndexer(indexer);
      await (await nc.jetstreamManager()).streams.delete(datasetSubjects(prefix).stream).catch(() => undefined);
      await nc.close();
      const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
      await client.indices.delete({ index: `${prefix}-*` }).catch(() => undefined);
      await client.close();
      dir.remove();
    });

    it('gives what standalone gives: 8 regions, 79 counties, the initial batches\' streets, the change batch\'s entrances with positions', async () => {
      const files = { 'davky.zip': SK_DAVKY, 'SK.txt': SK_GEONAMES, 'zmenovadavka5156536.xml': SK_CHANGE };
      const commands = readmeImportCommands('SK');
      expect(commands.map((a) => a[0])).toEqual(['catalogue', 'addresses', 'address-changes']);
      const out: string[] = [];
      const deps = { out: (l: string) => void out.push(l), progress: { write: () => true, isTTY: false }, progressLogEveryMs: 60000 };
      for (const argv of commands) {
        const real = withFiles(argv, files);
        if (isDatasetCommand(real)) await runDatasetImport([...real, '--wait', '--wait-timeout', '120'], config, deps);
        else await runImport(real, config, deps.out);
      }
      const live = out.filter((l) => l.startsWith('live: '));
      expect(live).toEqual([expect.stringMatching(/^live: SK addresses .* from .*davky\.zip$/), expect.stringMatching(/^live: SK address-changes .*  [1-9]\d* documents changed  from .*zmenovadavka5156536\.xml$/)]);
      // What the indexer skipped and why, printed by --wait as the standalone run prints it (before: only in no log at all).
      const skippedNotes = out.filter((l) => /^  note: [1-9]\d* skipped, [1-9]\d* reported, the first: .+; the indexer's log lists the first 20$/.test(l));
      expect(skippedNotes).toHaveLength(2);

      // `import status` (the README's last command) names all three, the catalogue too (written by the CLI itself).
      out.length = 0;
      await runDatasetImport(['status'], config, deps);
      expect(out.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['SK address-changes', 'SK addresses', 'SK catalogue']);
      await expectRealSkAnswers(config).catch(async (err: Error) => {
        // What the engine held when a search failed (a CI run once met "all shards failed" here, not seen since).
        const client = createOpenSearchClient({ url: serverUrl('opensearch'), timeoutMs: 30000 });
        const shards = await client.cat.shards({ index: `${prefix}-*`, format: 'json' } as never).then((r) => JSON.stringify(r.body), (e: Error) => e.message);
        await client.close();
        err.message += `\nshards of ${prefix}-*: ${shards}\nindexer output:\n${output.slice(-30).join('\n')}`;
        throw err;
      });

      // The addresses again (forced: the same file's event would be a duplicate): the change batch is not in the new version.
      // `--wait` prints the indexer's note with the live line, and the status forgets the batch.
      out.length = 0;
      await runDatasetImport(['addresses', 'SK', SK_DAVKY, '--force', '--wait', '--wait-timeout', '120'], config, deps);
      expect(out).toContainEqual(expect.stringMatching(/^  note: the change batches applied to the previous version are not in this one \(the last: .*zmenovadavka5156536\.xml, applied \S+\): apply those published after this file again/));
      out.length = 0;
      await runDatasetImport(['status'], config, deps);
      expect(out.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['SK addresses', 'SK catalogue']);
    }, 300000);
  });
});
