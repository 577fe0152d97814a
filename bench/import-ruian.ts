/**
 * Whole-register RUIAN import into a no-op sink: what parsing, S-JTSK conversion, doc building
 * and aggregation cost, without any engine. Build and run:
 *   npx tsc -p tsconfig.build.json && node -r ./tools/paths.js dist/bench/import-ruian.js [zip] [psc-list.csv]
 * Prints one Markdown table row for the README's benchmark table.
 */
import { resolve } from 'node:path';
import { AddressImportReport, ruianPlaceDocs } from '../libs/places/src/importers/address-import';

async function main(): Promise<void> {
  const zip = resolve(process.argv[2] ?? '../shared/data/cz/20231231_OB_ADR_csv.zip');
  const pscList = resolve(process.argv[3] ?? '../shared/data/cz/psc-list.csv');
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200);
  let report: AddressImportReport | null = null;
  let docs = 0;
  let addressesAt = 0;
  const t0 = process.hrtime.bigint();
  for await (const batch of ruianPlaceDocs({ zipOrDir: zip, catalogue: { pscList }, batchSize: 1000, onReport: (r) => (report = r) })) {
    docs += batch.length;
    if (batch[batch.length - 1]!.object === 'address') addressesAt = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  const total = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
  const r = report as AddressImportReport | null;
  if (!r) throw new Error('import ended without a report');
  const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
  const fmt = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');
  console.log(JSON.stringify({ ...r, errors: r.errors.slice(0, 5), errorCount: r.errors.length, docs, addressSeconds: addressesAt, totalSeconds: total, peakRss: mb(peakRss) }, null, 1));
  console.log('| what | dataset | result |');
  console.log('|---|---|---|');
  console.log(
    `| RUIAN address import, CZ, parse + S-JTSK + docs + aggregates into a no-op sink | ${fmt(r.addresses)} addresses + ` +
      `${fmt(r.streets)} streets, ${fmt(r.postalCodes)} postal codes, ${fmt(r.municipalities)} municipalities | ` +
      `${total.toFixed(1)} s, ${fmt(Math.round(r.addresses / total))} addresses/s, peak RSS ${mb(peakRss)} |`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
