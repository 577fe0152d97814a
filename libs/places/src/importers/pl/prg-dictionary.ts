import { StringPool } from '../address-aggregates';
import { firstText, PrgFeature } from './prg-gml.reader';

/** A TERYT unit named in a 2012 file: level 1 country, 2 voivodeship, 3 powiat, 4 gmina. */
export interface PrgUnit {
  name: string;
  teryt: string | null;
  level: number;
}

export interface PrgLocality {
  name: string;
  /** TERYT SIMC identifier (7 digits). */
  simc: string | null;
  /** TERYT gmina code with its type digit (7 digits): the 2021 schema's `TERYTGminy`. */
  gmina: string | null;
}

export interface PrgStreet {
  /** As the address shows it: with its TERYT type prefix in the 2021 schema (`ul. Podgórna`). */
  name: string;
  /** TERYT ULIC identifier (5 digits). */
  ulic: string | null;
}

/**
 * TERYT street types (`cecha`) by the 2021 schema's `AD_UlicaPlac/rodzaj` code, with the words
 * that mean the same when a name already starts with them (`Plac Kasztanowy` is not prefixed again).
 * 15 and 16 are "other linear/areal objects": no prefix.
 */
const STREET_TYPES: Readonly<Record<string, { prefix: string; words: string[] }>> = {
  '1': { prefix: 'ul.', words: ['ul.', 'ulica'] },
  '2': { prefix: 'al.', words: ['al.', 'aleja', 'aleje'] },
  '3': { prefix: 'pl.', words: ['pl.', 'plac'] },
  '4': { prefix: 'skwer', words: ['skwer'] },
  '5': { prefix: 'bulw.', words: ['bulw.', 'bulwar'] },
  '6': { prefix: 'rondo', words: ['rondo'] },
  '7': { prefix: 'park', words: ['park'] },
  '8': { prefix: 'rynek', words: ['rynek'] },
  '9': { prefix: 'szosa', words: ['szosa'] },
  '10': { prefix: 'droga', words: ['droga'] },
  '11': { prefix: 'os.', words: ['os.', 'osiedle'] },
  '12': { prefix: 'ogród', words: ['ogród'] },
  '13': { prefix: 'wyspa', words: ['wyspa'] },
  '14': { prefix: 'wyb.', words: ['wyb.', 'wybrzeże'] },
};

/** `ul. Podgórna` from rodzaj `1` and `Podgórna`; `pl. Jana Pawła II` from `3`, `Jana Pawła II`; names already typed stay. */
export function prefixedStreetName(kind: string | null, name: string): string {
  const type = kind ? STREET_TYPES[kind.replace(/^0+/, '')] : undefined;
  if (!type) return name;
  const lower = name.toLocaleLowerCase('pl');
  if (type.words.some((w) => lower === w || lower.startsWith(w.endsWith('.') ? w : `${w} `))) return name;
  return `${type.prefix} ${name}`;
}

/**
 * The name objects of a PRG file, by gml:id: the 2012 schema's unit, locality and street names
 * (reached from a point's `komponent` links) and the 2021 schema's `AD_Miejscowosc` and
 * `AD_UlicaPlac` (reached from `miejscowosc` and `ulica2`). Their order in a file is not fixed
 * (2012 files list them after the points), so they are read in a pass of their own.
 */
export class PrgDictionary {
  readonly units = new Map<string, PrgUnit>();
  readonly localities = new Map<string, PrgLocality>();
  readonly streets = new Map<string, PrgStreet>();
  private readonly str = new StringPool();

  add(f: PrgFeature): void {
    const id = this.str.get(f.gmlId);
    if (!id) return;
    switch (f.type) {
      case 'PRG_JednostkaAdministracyjnaNazwa': {
        const level = Number(/^(\d)/.exec(firstText(f, 'poziom') ?? '')?.[1] ?? 0);
        this.units.set(id, { name: this.str.get(firstText(f, 'nazwa') ?? ''), teryt: this.str.get(firstText(f, 'idTERYT')), level });
        break;
      }
      case 'PRG_MiejscowoscNazwa':
      case 'AD_Miejscowosc':
        this.localities.set(id, {
          name: this.str.get(firstText(f, 'nazwa') ?? ''),
          simc: this.str.get(firstText(f, 'identyfikatorSIMC') ?? firstText(f, 'idTERYT')),
          gmina: this.str.get(firstText(f, 'TERYTGminy')),
        });
        break;
      case 'PRG_UlicaNazwa':
        this.streets.set(id, { name: this.str.get(street2012Name(f)), ulic: this.str.get(firstText(f, 'idTERYT')) });
        break;
      case 'AD_UlicaPlac':
        this.streets.set(id, { name: this.str.get(street2021Name(f)), ulic: this.str.get(firstText(f, 'identyfikatorULIC')) });
        break;
    }
  }
}

/** `mua:AD_NazwaUlicy` parts in writing order (prefixes, then the name parts). */
function street2012Name(f: PrgFeature): string {
  return ['przedrostek1Czesc', 'przedrostek2Czesc', 'nazwaCzesc', 'nazwaGlownaCzesc']
    .map((k) => firstText(f, k))
    .filter((s): s is string => !!s)
    .join(' ');
}

/** TERYT's second name part (forenames) before the main one, with the type prefix; `nazwaPelna` when the parts are missing. */
function street2021Name(f: PrgFeature): string {
  const main = firstText(f, 'TERYTNazwa1');
  const name = main ? [firstText(f, 'TERYTNazwa2'), main].filter(Boolean).join(' ') : (firstText(f, 'nazwaPelna') ?? '');
  return name ? prefixedStreetName(firstText(f, 'rodzaj'), name) : '';
}
