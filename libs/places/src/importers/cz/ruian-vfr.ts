import { PlaceDoc, placeId } from '../../domain/place.doc';
import { PRAHA_CODE } from './ruian-address.builder';
import type { RuianAddressRow } from './ruian-csv.reader';
import type { VfrAddress } from './ruian-vfr.reader';
import type { RuianVfrState } from './ruian-vfr.state';

export * from './ruian-vfr.reader';
export * from './ruian-vfr.state';

/** `TypStavebnihoObjektuKod` (RUIAN code list "typ stavebního objektu"): 1 č.p., 2 č.ev.; others carry no number an address could use. */
const KIND_BY_TYPE: Record<string, 'cp' | 'ce'> = { '1': 'cp', '2': 'ce' };

export type VfrResolution = { row: RuianAddressRow; fromStore: string[] } | { error: string };

/** The register code behind a place id (`cz_m500011` -> `500011`). */
function codeOf(id: string | null): string | null {
  return id ? id.replace(/^[a-z]{2}_[a-z]/, '') : null;
}

/**
 * Everything an address document needs that an address point names by code only: the number
 * kind (from the building's type), part of municipality and municipality (from the building's
 * `CastObce`), MOMC and MOP names, and the street name. Each comes from the state (what change
 * files said so far, this one included) and otherwise from the document the store holds for the
 * same address, which a full import wrote from the same register: the fields taken from it are
 * listed in `fromStore`. What neither has is an error naming the missing reference.
 */
export function resolveVfrAddress(a: VfrAddress, state: RuianVfrState, existing: PlaceDoc | null): VfrResolution {
  const what = `AdresniMisto ${a.kod}`;
  const fromStore: string[] = [];
  if (!a.houseNumber) return { error: `${what}: no CisloDomovni` };
  if (!a.postalCode) return { error: `${what}: no Psc` };
  const building = a.buildingKod ? state.buildingOf(a.buildingKod) : undefined;
  /** A reference the state lacks, taken from the existing document when there is one. */
  const fallback = <T>(field: string, value: T | undefined, fromDoc: (d: PlaceDoc) => T, missing: string): T | { error: string } => {
    if (value !== undefined) return value;
    if (!existing) return { error: `${what}: ${missing} is unknown (not in this file, not in earlier change files, and the store has no document ${placeId('CZ', 'address', a.kod)})` };
    fromStore.push(field);
    return fromDoc(existing);
  };
  const isError = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v;

  const buildingRef = `StavebniObjekt ${a.buildingKod ?? '(none)'}`;
  const knownKind = building?.kindCode ? (KIND_BY_TYPE[building.kindCode] ?? null) : undefined;
  if (knownKind === null) return { error: `${what}: ${buildingRef} has type ${building!.kindCode}, neither č.p. (1) nor č.ev. (2)` };
  const kind = fallback('number_kind', knownKind, (d) => d.number_kind, `${buildingRef} (its type)`);
  if (isError(kind)) return kind;
  if (kind !== 'cp' && kind !== 'ce') return { error: `${what}: the stored document has no number kind` };

  const part = building?.part ? state.unitOf('part', building.part) : undefined;
  const partName = fallback('district', part?.name, (d) => d.district ?? '', `CastObce ${building?.part ?? `of ${buildingRef}`}`);
  if (isError(partName)) return partName;
  const municipalityCode = fallback('municipality_id', part?.parent ?? undefined, (d) => codeOf(d.municipality_id), `the Obec of CastObce ${building?.part ?? '?'}`);
  if (isError(municipalityCode) || !municipalityCode) return isError(municipalityCode) ? municipalityCode : { error: `${what}: no municipality` };
  const municipality = state.unitOf('municipality', municipalityCode);
  const municipalityName = municipality?.name ?? (existing && codeOf(existing.municipality_id) === municipalityCode ? existing.municipality : null) ?? '';

  // MOMC: a building without one has none; one the state does not name comes from the document.
  let momcName: string | null = null;
  let pragueDistrictName: string | null = null;
  if (building && !building.momc) {
    momcName = null;
  } else {
    const momc = building?.momc ? state.unitOf('momc', building.momc) : undefined;
    const name = fallback('city_district', momc?.name, (d) => d.city_district, `Momc ${building?.momc ?? `of ${buildingRef}`}`);
    if (isError(name)) return name;
    momcName = name;
    if (municipalityCode === PRAHA_CODE) {
      const mop = momc?.parent ? state.unitOf('mop', momc.parent) : undefined;
      const mopName = fallback('postal_place', mop?.name, (d) => d.postal_place, `Mop ${momc?.parent ?? '?'}`);
      if (isError(mopName)) return mopName;
      pragueDistrictName = mopName;
    }
  }

  let streetName: string | null = null;
  if (a.streetKod) {
    const street = state.unitOf('street', a.streetKod);
    const sameStreet = existing?.street_id === placeId('CZ', 'street', a.streetKod);
    const name = fallback('street', street?.name, (d) => (sameStreet ? d.street : null), `Ulice ${a.streetKod}`);
    if (isError(name)) return name;
    if (!name) return { error: `${what}: Ulice ${a.streetKod} is unknown (not in the change files, and the stored document has another street)` };
    streetName = name;
  }

  return {
    fromStore,
    row: {
      admCode: a.kod,
      municipalityCode,
      municipalityName,
      momcName,
      pragueDistrictName,
      partName,
      streetCode: a.streetKod,
      streetName,
      kind,
      houseNumber: a.houseNumber,
      orientation: a.orientation,
      postalCode: a.postalCode,
      x: a.x,
      y: a.y,
      line: 0,
    },
  };
}
