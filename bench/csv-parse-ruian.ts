/**
 * csv-parse (the well-kept parser, already a dependency) against our own CSV reader
 * (`importers/io/csv.ts` over `readLines`, what `readRuianCsv` uses) on the real RUIAN zip:
 * the same entries decoded from windows-1250, `;`-separated, every record counted and hashed so
 * both must give the same fields. The floor, in the same run: decoding the text only (no
 * parsing). Rounds alternate the order; the load average is printed with each.
 *
 *   node -r ./tools/ts-register.js bench/csv-parse-ruian.ts [zip]
 *   BENCH_STEP=4 (every 4th municipality file; 1 = the whole register)  BENCH_ROUNDS=2
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import * as iconv from 'iconv-lite';
import { csvRecords, readLines, readText, SourceFile, sourcesAt } from '../libs/places/src/importers/io';

// Run from the repository root, as the other benches.
const ZIP = resolve(process.argv[2] ?? '../shared/data/cz/20231231_OB_ADR_csv.zip');
const STEP = Number(process.env['BENCH_STEP'] ?? 4);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);

interface Result {
  records: number;
  chars: number;
  hash: string;
}

type Reader = (src: SourceFile, acc: { records: number; chars: number; hash: ReturnType<typeof createHash> }) => Promise<void>;

const READERS: Record<string, Reader> = {
  'floor: decode only': async (src, acc) => {
    for await (const text of readText(src, { encoding: 'windows-1250' })) acc.chars += text.length;
  },
  'ours: readLines + csvRecords': async (src, acc) => {
    for await (const { fields } of csvRecords(readLines(src, { encoding: 'windows-1250' }), { delimiter: ';' })) {
      acc.records++;
      acc.hash.update(fields.join('\u0001'));
    }
  },
  'csv-parse 6 (stream)': async (src, acc) => {
    const parser = parse({ delimiter: ';', relax_column_count: true, bom: true });
    const consume = (async () => {
      for await (const fields of parser as AsyncIterable<string[]>) {
        acc.records++;
        acc.hash.update(fields.join('\u0001'));
      }
    })();
    await pipeline(await src.open(), iconv.decodeStream('windows-1250'), parser);
    await consume;
  },
};

async function run(name: string, reader: Reader): Promise<Result & { seconds: number; load: number }> {
  const acc = { records: 0, chars: 0, hash: createHash('sha256') };
  const load = loadavg()[0]!;
  const t0 = process.hrtime.bigint();
  let i = 0;
  for await (const src of sourcesAt(ZIP, /_ADR\.csv$/i)) {
    if (i++ % STEP !== 0) continue;
    await reader(src, acc);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { records: acc.records, chars: acc.chars, hash: acc.hash.digest('hex').slice(0, 16), seconds, load };
}

async function main(): Promise<void> {
  const names = Object.keys(READERS);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const results: Record<string, Result> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      const res = await run(name, READERS[name]!);
      times[name]!.push(res.seconds);
      results[name] = res;
      console.error(`round ${r + 1} ${name}: ${res.seconds.toFixed(2)} s, ${res.records} records, hash ${res.hash}, load ${res.load.toFixed(1)}`);
    }
  }
  const best = (n: string) => Math.min(...times[n]!);
  const floor = best(names[0]!);
  const same = results[names[1]!]!.hash === results[names[2]!]!.hash && results[names[1]!]!.records === results[names[2]!]!.records;
  console.log(JSON.stringify({ zip: ZIP, step: STEP, rounds: ROUNDS, sameRecords: same, results, best: Object.fromEntries(names.map((n) => [n, best(n)])) }, null, 1));
  console.log(`| ${names.map((n) => `${n} ${best(n).toFixed(2)} s (${(best(n) / floor).toFixed(2)} x floor)`).join(', ')}; ${results[names[1]!]!.records} records, same fields: ${same}; load ${loadavg()[0]!.toFixed(1)} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
