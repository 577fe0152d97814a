import { AppConfig } from '@lookup/shared/config';
import { CatalogueService, createPlacesStore, PlacesSearchService, PlacesStore } from '@lookup/places';

/**
 * What a user sees after the README's Slovak imports of the real files (`sk/davky.zip`, then the
 * change batch `zmenovadavka5156536.xml`), in either profile: the whole catalogue, the initial
 * batches' streets, and the change batch's entrances as addresses with positions.
 */
export async function expectRealSkAnswers(config: AppConfig): Promise<void> {
  const store = createPlacesStore(config);
  await store.init();
  try {
    await expectAnswers(store);
  } finally {
    await store.close();
  }
}

async function expectAnswers(store: PlacesStore): Promise<void> {
  const catalogue = new CatalogueService(store);
  expect((await catalogue.regions('SK')).length).toBe(8);
  expect((await catalogue.counties('SK')).length).toBe(79);
  expect((await catalogue.municipalities('SK')).length).toBeGreaterThanOrEqual(2900);
  expect(await store.count('SK', 'street')).toBeGreaterThan(30000);
  expect(await store.count('SK', 'address')).toBeGreaterThan(100);
  const search = new PlacesSearchService(store);
  const [address] = await search.query({ query: 'Vychylovka 306', country: ['SK'] } as never);
  expect(address).toMatchObject({ object: 'address', municipality: 'Nová Bystrica', county: expect.any(String), region: expect.any(String) });
  expect((address as unknown as { latlng: { lat: number } }).latlng.lat).toBeGreaterThan(47);
  // Streets of the initial batches, found although they have no entrance with a position.
  const streets = await search.street({ query: 'Hlavná Ivanka pri Dunaji', country: ['SK'] } as never);
  expect(streets[0]).toMatchObject({ object: 'street', street: 'Hlavná', municipality: 'Ivanka pri Dunaji' });
}
