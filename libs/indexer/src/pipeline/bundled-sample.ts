import { CountryCode } from '@lookup/contracts';
import { bundledSampleKinds, DatasetStatusStore } from '@lookup/places';
import type { PlacesLayer } from './importers';

/** The official file each country's addresses layer is imported from, as the user names it. */
const ADDRESS_FILES: Record<CountryCode, string> = {
  CZ: '<RUIAN address CSV zip>',
  SK: '<Register adries DavkaInit.zip>',
  PL: '<PRG file>',
  AT: '<BEV Adressregister zip>',
  CH: '<swisstopo building address CSV>',
  LI: '<OSM PBF>',
};

/** The command that imports a country's official layer (what replaces the bundled sample's). */
export function officialImportCommand(country: CountryCode, layer: PlacesLayer): string {
  if (layer === 'addresses') return `npx lookup import addresses ${country} ${ADDRESS_FILES[country]}`;
  const catalogue = country === 'CZ' ? '--psc-list zv_cobce_psc.zip --geonames CZ.txt' : country === 'SK' ? '--register DavkaInit.zip --geonames SK.txt' : `--geonames ${country}.txt`;
  return `npx lookup import catalogue ${country} ${catalogue}`;
}

/** What a run tells the user when its version leaves out the bundled sample's other layer. */
export function sampleRemovedNote(country: CountryCode, layer: PlacesLayer, dryRun: boolean): string {
  const what = `the bundled sample's ${country} ${layer} (invented rows)`;
  const real = `real ${layer === 'addresses' ? 'ones' : 'one'}: ${officialImportCommand(country, layer)}`;
  return `${dryRun ? `a real run removes ${what}` : `removed ${what}`}; ${real}`;
}

/**
 * The bundled sample's layers of a country, as the status store has them on record (a standalone
 * store's first start: `recordBundledSample` in @lookup/places); none without a status store.
 * An official import of one layer replaces the sample whole: the runner drops the sample's other
 * layer from its version, then `forget`s what the sample had on record.
 */
export class BundledSampleLayers {
  constructor(private readonly status: Pick<DatasetStatusStore, 'read' | 'remove'> | undefined) {}

  async live(country: CountryCode): Promise<PlacesLayer[]> {
    if (!this.status) return [];
    return bundledSampleKinds(await this.status.read(), country).filter((k): k is PlacesLayer => k === 'addresses' || k === 'catalogue');
  }

  async forget(country: CountryCode, layers: readonly PlacesLayer[]): Promise<void> {
    for (const l of layers) await this.status?.remove(country, l);
  }
}
