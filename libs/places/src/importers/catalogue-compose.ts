import { CountryCode, PlaceObject } from '@lookup/contracts';
import { PlaceDoc } from '../domain/place.doc';
import { CATALOGUE_OBJECTS } from '../store/places.store';
import { AddressAggregates } from './address-aggregates';

const AREA = new Set<PlaceObject>(CATALOGUE_OBJECTS);
/** Documents that name their municipality's county and region and follow the catalogue. */
const LINKED = new Set<PlaceObject>(['address', 'street', 'postal_code']);

/**
 * A catalogue import composed with the country's live address layer (see libs/indexer/README.md,
 * "What a version holds"): every carried address, street and postal code is re-linked to the new
 * catalogue's county and region (through its municipality), and the addresses are counted again,
 * so each municipality, county and region keeps the weight and centroid of its addresses — the
 * same values an address import would give it. Catalogue objects without addresses keep the
 * catalogue's own position (Praha in an extract without it).
 *
 * A catalogue that brings postal codes (its GeoNames file) owns the country's postal codes: the
 * version replaces them (`ownsPostalCodes`), so a code GeoNames moved is moved and one it dropped
 * is gone. The ones the carried addresses give are derived again from them, as an address import
 * derives them, and win over GeoNames' (same ids): a register's own postal codes stay its own.
 */
export class CatalogueComposer {
  private readonly byId: Map<string, PlaceDoc>;
  private readonly agg: AddressAggregates;
  private addresses = 0;
  /** The catalogue's postal codes (GeoNames'); the version replaces the live ones when there are any. */
  readonly ownsPostalCodes: boolean;
  private postal: ComposedPostalCodes = { file: 0, register: 0, both: 0 };

  constructor(
    country: CountryCode,
    /** The new catalogue's region, county and municipality documents. */
    catalogue: PlaceDoc[],
  ) {
    this.byId = new Map(catalogue.map((d) => [d.place_id, d]));
    this.agg = new AddressAggregates(country, (id) => this.byId.get(id));
    this.ownsPostalCodes = catalogue.some((d) => d.object === 'postal_code');
  }

  /** Where the version's postal codes came from; after `docs()`. */
  get postalCodes(): ComposedPostalCodes {
    return this.postal;
  }

  /** The carried addresses seen so far. */
  get carriedAddresses(): number {
    return this.addresses;
  }

  /** For `VersionScope.carry`: re-links one carried document (in place) and counts it. */
  readonly carry = (d: PlaceDoc): PlaceDoc => {
    if (!LINKED.has(d.object)) return d;
    const m = d.municipality_id ? this.byId.get(d.municipality_id) : undefined;
    if (m) [d.county_id, d.county, d.region_id, d.region] = [m.county_id, m.county, m.region_id, m.region];
    if (d.object === 'address') {
      this.addresses++;
      this.agg.add(d);
    }
    return d;
  };

  /** The catalogue's documents, with the carried addresses' weights and centroids; call after the carry. */
  docs(): PlaceDoc[] {
    const out = new Map(this.byId);
    const postal: ComposedPostalCodes = { file: 0, register: 0, both: 0 };
    if (this.ownsPostalCodes) for (const d of this.byId.values()) if (d.object === 'postal_code') postal.file++;
    if (this.addresses > 0) {
      for (const d of this.agg.docs()) {
        if (AREA.has(d.object)) out.set(d.place_id, d);
        else if (d.object === 'postal_code' && this.ownsPostalCodes) {
          postal.register++;
          if (out.has(d.place_id)) postal.both++;
          out.set(d.place_id, d);
        }
      }
    }
    this.postal = postal;
    return [...out.values()];
  }
}

/** A composed catalogue version's postal codes: from the catalogue's file, derived from the carried addresses, and in both (the register's kept). */
export interface ComposedPostalCodes {
  file: number;
  register: number;
  both: number;
}
