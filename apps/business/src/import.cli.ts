import 'reflect-metadata';
import { loadConfig } from '@lookup/shared/config';
import { configuredBusinessSources, createBusinessStore, importBusiness } from '@lookup/business';

/**
 * Full import of the business registers into the profile's engine (SQLite file or a new
 * OpenSearch index behind the alias), from the files named by BUSINESS_RES_CSV,
 * BUSINESS_RUIAN_ZIP, BUSINESS_RPO_JSON and BUSINESS_ARES_JSON:
 *
 *   BUSINESS_RES_CSV=res_data.csv BUSINESS_RUIAN_ZIP=20231231_OB_ADR_csv.zip \
 *     node -r ./tools/paths.js dist/apps/business/src/import.cli.js
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const sources = configuredBusinessSources(config);
  if (!sources) throw new Error('nothing to import: set BUSINESS_RES_CSV and/or BUSINESS_RPO_JSON');
  const store = createBusinessStore(config);
  await store.init();
  try {
    const t0 = Date.now();
    const r = await importBusiness(store, sources, 'configured files', (n) => {
      if (n % 200000 < 2000) console.log(`${n} entities, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    });
    console.log(`${r.docs} entities into ${store.engine} (${r.skipped} rows skipped, ${r.refreshed} ARES refreshes) in ${r.seconds.toFixed(1)} s`);
    if (r.rpoWithoutDetail > 0) {
      console.warn(`${r.rpoWithoutDetail} RPO entities came from search answers only: no legal form and no sector; add their detail answers (/rpo/v1/entity/{id}) to BUSINESS_RPO_JSON`);
    }
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
