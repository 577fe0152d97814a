import { formatAddress } from '../../domain/address-format';
import { emptyDoc, PlaceDoc, placeId } from '../../domain/place.doc';
import { round7 } from '../address-aggregates';
import { parseRegisterDate, SK_CATALOGUE_TYPES, SkCatalogueBuilder } from './sk-catalogue.builder';
import type { RegisterChange } from './sk-register-xml.reader';

/** Batch types an address needs: the catalogue, municipality parts, streets, buildings (súpisné číslo) and entrances. */
export const SK_ADDRESS_TYPES = [...SK_CATALOGUE_TYPES, 'DISTRICT', 'STREET_NAME', 'PROPERTY_REGISTRATION_NUMBER', 'BUILDING_NUMBER'] as const;

/** Only what an address needs of each version, so the whole register fits in memory compactly. */
interface Version {
  v: number;
  deleted: boolean;
  /** validTo in ms; Infinity when open. */
  until: number;
  /** District/street: name; building: súpisné číslo; entrance: orientačné číslo. */
  text: string;
  municipality?: string;
  district?: string;
  building?: string;
  street?: string;
  postal?: string;
  lat?: number;
  lng?: number;
  source: string;
}

type ObjectType = 'DISTRICT' | 'STREET_NAME' | 'PROPERTY_REGISTRATION_NUMBER' | 'BUILDING_NUMBER';

/** A rough box around Slovakia: a position outside it is a register error, not an address there. */
const SK_BOX = { latMin: 47.6, latMax: 49.7, lngMin: 16.7, lngMax: 22.7 };

/**
 * Folds Register adries records into the addresses valid at `asOf`. Per objectId the highest
 * versionId wins whatever the batch order; within one versionId a DELETE, then the version
 * with the earlier validTo (the change service re-sends a version as UPDATE when it closes it).
 * So applying a batch twice changes nothing, and a DELETE leaves no address.
 */
export class SkAddressFold {
  private readonly cat: SkCatalogueBuilder;
  private readonly objects = new Map<ObjectType, Map<string, Version>>(
    (['DISTRICT', 'STREET_NAME', 'PROPERTY_REGISTRATION_NUMBER', 'BUILDING_NUMBER'] as const).map((t) => [t, new Map()]),
  );
  readonly errors: string[] = [];
  private built: Map<string, PlaceDoc> | null = null;

  constructor(private readonly asOf: Date = new Date()) {
    this.cat = new SkCatalogueBuilder(asOf);
  }

  apply(rec: RegisterChange): void {
    if ((SK_CATALOGUE_TYPES as readonly string[]).includes(rec.type)) return this.cat.apply(rec);
    const byId = this.objects.get(rec.type as ObjectType);
    if (!byId) return;
    if (!['INSERT', 'UPDATE', 'DELETE'].includes(rec.operation)) {
      this.errors.push(`${rec.source}: ${rec.type} ${rec.objectId} v${rec.versionId}: unknown databaseOperation ${rec.operation}`);
      return;
    }
    const prev = byId.get(rec.objectId);
    if (prev && rec.versionId < prev.v) return;
    const next = this.compact(rec);
    // Same version twice: the closing UPDATE (or a DELETE) knows more than the INSERT it closes,
    // whichever batch comes first, so the fold does not depend on the order of the batches.
    if (prev && rec.versionId === prev.v && !(next.deleted || (!prev.deleted && next.until < prev.until))) return;
    byId.set(rec.objectId, next);
  }

  /** Region, county and municipality docs of the catalogue by place_id (built on first use, after every batch was applied). */
  get catalogue(): Map<string, PlaceDoc> {
    if (!this.built) {
      const cat = this.cat.build();
      this.errors.push(...cat.errors);
      this.built = new Map([...cat.regions, ...cat.counties, ...cat.municipalities].map((m) => [m.place_id, m]));
    }
    return this.built;
  }

  /**
   * Current entrances as address docs; each one that cannot be placed is reported and counted.
   * The callbacks get the entrance's objectId, and onError whether the entrance was left out
   * (`dropped`) or is only warned about (kept without a position).
   */
  *addresses(onError: (m: string, objectId: string, dropped: boolean) => void, onSkip: (objectId: string) => void): Generator<PlaceDoc> {
    void this.catalogue;
    const entrances = [...this.objects.get('BUILDING_NUMBER')!].sort(([a], [b]) => Number(a) - Number(b) || (a < b ? -1 : 1));
    for (const [objectId, e] of entrances) {
      if (!this.current(e)) continue;
      const problem = (m: string) => {
        onSkip(objectId);
        onError(`${e.source}: entrance objectId ${objectId}: ${m}`, objectId, true);
      };
      const doc = this.address(objectId, e, problem, (m) => onError(m, objectId, false));
      if (doc) yield doc;
    }
  }

  private address(objectId: string, e: Version, problem: (m: string) => void, warn: (m: string) => void): PlaceDoc | null {
    const building = e.building ? this.live('PROPERTY_REGISTRATION_NUMBER', e.building) : undefined;
    if (!building) return problem(`its building (objectId ${e.building ?? 'none'}) is not a current building`), null;
    const street = e.street ? this.live('STREET_NAME', e.street) : undefined;
    if (e.street && !street) return problem(`its street (objectId ${e.street}) is not a current street`), null;
    const muniObject = building.municipality ?? street?.municipality;
    const m = muniObject ? this.cat.municipalityByObjectId(muniObject) : undefined;
    if (!m) return problem(`its municipality (objectId ${muniObject ?? 'none'}) is not a current municipality`), null;
    const supisne = building.text && building.text !== '0' ? building.text : null;
    if (!supisne && !e.text) return problem('neither a súpisné nor an orientačné číslo'), null;
    const d = emptyDoc('SK', 'address', placeId('SK', 'address', objectId), '');
    d.region_id = m.region_id;
    d.region = m.region;
    d.county_id = m.county_id;
    d.county = m.county;
    d.municipality_id = m.place_id;
    d.municipality = m.name;
    const districtId = building.district ?? street?.district;
    d.district = (districtId && this.live('DISTRICT', districtId)?.text) || null;
    d.street = street?.text ?? null;
    d.street_id = street ? placeId('SK', 'street', e.street!) : null;
    d.street_number = supisne;
    d.number_kind = supisne ? 'cp' : null;
    d.building_number = e.text || null;
    d.postal_code = e.postal && /^\d{5}$/.test(e.postal) ? e.postal : null;
    if (e.lat !== undefined && e.lng !== undefined) {
      const inside = e.lat >= SK_BOX.latMin && e.lat <= SK_BOX.latMax && e.lng >= SK_BOX.lngMin && e.lng <= SK_BOX.lngMax;
      if (inside) [d.lat, d.lng] = [round7(e.lat), round7(e.lng)];
      else warn(`${e.source}: entrance objectId ${objectId}: AxisB/AxisL ${e.lat},${e.lng} is outside Slovakia: kept without a position`);
    }
    d.name = formatAddress(d).formatted_address;
    return d;
  }

  /**
   * Current streets as street docs (no position: the register gives streets none), so an import
   * of the initial batches, which hold streets but few entrances, still finds them.
   */
  *streets(): Generator<PlaceDoc> {
    void this.catalogue;
    for (const [objectId, st] of this.objects.get('STREET_NAME')!) {
      if (!this.current(st) || !st.text) continue;
      const m = st.municipality ? this.cat.municipalityByObjectId(st.municipality) : undefined;
      if (!m) continue;
      const id = placeId('SK', 'street', objectId);
      const d = emptyDoc('SK', 'street', id, st.text);
      [d.region_id, d.region, d.county_id, d.county, d.municipality_id, d.municipality] = [m.region_id, m.region, m.county_id, m.county, m.place_id, m.name];
      d.street = st.text;
      d.street_id = id;
      d.district = (st.district && this.live('DISTRICT', st.district)?.text) || null;
      yield d;
    }
  }

  private live(type: ObjectType, objectId: string): Version | undefined {
    const v = this.objects.get(type)!.get(objectId);
    return v && this.current(v) ? v : undefined;
  }

  private current(v: Version): boolean {
    return !v.deleted && v.until > this.asOf.getTime();
  }

  private compact(rec: RegisterChange): Version {
    const f = rec.fields;
    const p = rec.parents;
    const until = rec.validTo === undefined ? Infinity : (parseRegisterDate(rec.validTo)?.getTime() ?? -Infinity);
    if (until === -Infinity) this.errors.push(`${rec.source}: ${rec.type} ${rec.objectId}: unreadable validTo ${rec.validTo}: treated as ended`);
    const out: Version = { v: rec.versionId, deleted: rec.operation === 'DELETE', until, text: '', source: rec.source };
    switch (rec.type as ObjectType) {
      case 'DISTRICT':
        out.text = rec.itemName?.trim() ?? '';
        out.municipality = p.municipalityIdentifier;
        break;
      case 'STREET_NAME':
        out.text = f['StreetName']?.trim() ?? '';
        out.municipality = p.municipalityIdentifier;
        out.district = p.districtIdentifier;
        break;
      case 'PROPERTY_REGISTRATION_NUMBER':
        out.text = f['PropertyRegistrationNumber']?.trim() ?? '';
        out.municipality = p.municipalityIdentifier;
        out.district = p.districtIdentifier;
        break;
      case 'BUILDING_NUMBER': {
        out.text = f['BuildingNumber']?.trim() ?? '';
        out.building = p['propertyRegistrationNumberIdentifier'];
        out.street = p['streetNameIdentifier'];
        out.postal = f['PostalCode']?.replace(/\s+/g, '');
        const lat = Number(f['AddressPoint.BLH.AxisB']);
        const lng = Number(f['AddressPoint.BLH.AxisL']);
        if (f['AddressPoint.BLH.AxisB'] && f['AddressPoint.BLH.AxisL'] && Number.isFinite(lat) && Number.isFinite(lng)) [out.lat, out.lng] = [lat, lng];
        break;
      }
    }
    return out;
  }
}
