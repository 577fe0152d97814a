import { padCin } from '../domain/cin';
import { BusinessDoc, businessIdFor } from '../domain/business.doc';
import { czLegalForm, czOrganizationSize, naceSegment } from '../domain/register-codes';
import { resDate } from './res-csv.reader';
import { parseTextAddress } from './address-text';

/** The parts of an ARES v3 `EkonomickySubjekt` (`/ekonomicke-subjekty/{ico}`) we read. */
export interface AresSidlo {
  kodStatu?: string;
  nazevObce?: string;
  nazevCastiObce?: string;
  nazevMestskeCastiObvodu?: string;
  nazevUlice?: string;
  cisloDomovni?: number;
  /** ARES: 1 = číslo popisné, 2 = číslo evidenční. */
  typCisloDomovni?: number;
  cisloOrientacni?: number;
  cisloOrientacniPismeno?: string;
  psc?: number | string;
  kodAdresnihoMista?: number;
  textovaAdresa?: string;
}

export interface AresSubject {
  ico?: string;
  obchodniJmeno?: string;
  sidlo?: AresSidlo;
  pravniForma?: string;
  datumVzniku?: string;
  datumZaniku?: string;
  dic?: string;
  /** Every activity, in code order: ARES marks none of them as the main one. */
  czNace?: string[];
  czNace2008?: string[];
  seznamRegistraci?: { stavZdrojeDph?: string; [k: string]: string | undefined };
  /** RES answers (`/ekonomicke-subjekty-res/{ico}`) only: the main activity, CZ-NACE 2025 and 2008. */
  czNacePrevazujici?: string;
  czNacePrevazujici2008?: string;
  statistickeUdaje?: { kategoriePoctuPracovniku?: string; institucionalniSektor2010?: string };
  primarniZaznam?: boolean;
}

/** A subject read from a RES answer: it has no tax number or VAT status, so those are kept. */
interface ResSubject extends AresSubject {
  fromRes: true;
}

/** `stavZdrojeDph` value of an active VAT registration. */
export const ARES_ACTIVE = 'AKTIVNI';

function sidloAddress(s: AresSidlo): Pick<BusinessDoc, 'street' | 'street_number' | 'building_number' | 'postal_code' | 'municipality' | 'district'> {
  if (!s.nazevObce && s.textovaAdresa) return parseTextAddress(s.textovaAdresa);
  const cd = s.cisloDomovni !== undefined ? String(s.cisloDomovni) : '';
  return {
    street: s.nazevUlice ?? '',
    street_number: cd ? (s.typCisloDomovni === 2 ? `č. ev. ${cd}` : cd) : null,
    building_number: s.cisloOrientacni !== undefined ? `${s.cisloOrientacni}${s.cisloOrientacniPismeno ?? ''}` : '',
    postal_code: s.psc !== undefined ? String(s.psc).padStart(5, '0') : '',
    municipality: s.nazevObce ?? '',
    district: s.nazevCastiObce ?? '',
  };
}

/**
 * Pure: an ARES subject -> an entity for a single-record refresh. ARES has the tax number and
 * the VAT status but no employee category: `previous` (the stored entity) keeps what ARES lacks.
 */
export function aresToDoc(s: AresSubject, previous?: BusinessDoc | null): BusinessDoc | null {
  const cin = padCin(s.ico ?? '');
  const name = (s.obchodniJmeno ?? '').replace(/\s+/g, ' ').trim();
  if (!cin || !name) return null;
  const fromRes = 'fromRes' in s;
  const dic = fromRes ? (previous?.tin ?? null) : s.dic?.trim() || null;
  const form = (s.pravniForma ?? '').trim();
  const size = czOrganizationSize(s.statistickeUdaje?.kategoriePoctuPracovniku);
  return {
    business_id: businessIdFor('CZ', cin),
    country: 'CZ',
    name,
    established_on: resDate(s.datumVzniku),
    terminated_on: resDate(s.datumZaniku),
    cin,
    tin: dic,
    vatin: fromRes ? (previous?.vatin ?? null) : dic && s.seznamRegistraci?.stavZdrojeDph === ARES_ACTIVE ? dic : null,
    ...(s.sidlo ? sidloAddress(s.sidlo) : pickAddress(previous)),
    legal_form: czLegalForm(form) || previous?.legal_form || '',
    legal_form_code: form || previous?.legal_form_code || '',
    segment: aresSegment(s) || previous?.segment || '',
    organization_size: size || previous?.organization_size || '',
  };
}

/** A NACE code that names an activity: RES writes `00` or `0000` for "none set". */
function realNace(code: string | undefined): string | undefined {
  return code && /[1-9]/.test(code) ? code : undefined;
}

/**
 * The sector of the main activity. Only RES marks it (`czNacePrevazujici`, CZ-NACE 2025, else
 * `czNacePrevazujici2008`); the `czNace` list of the main answer is sorted by code, so its
 * first entry is the lowest code, not the main activity (ČEZ's would be manufacturing). From
 * that list alone a sector is certain only when every code falls in the same one.
 */
export function aresSegment(s: AresSubject): string {
  const main = realNace(s.czNacePrevazujici) ?? realNace(s.czNacePrevazujici2008);
  if (main) return naceSegment(main, 'CZ');
  const list = s.czNace?.length ? s.czNace : (s.czNace2008 ?? []);
  const sectors = new Set(list.map((c) => naceSegment(c, 'CZ')).filter((x) => x !== ''));
  return sectors.size === 1 ? [...sectors][0]! : '';
}

function pickAddress(p?: BusinessDoc | null) {
  return {
    street: p?.street ?? '',
    street_number: p?.street_number ?? null,
    building_number: p?.building_number ?? '',
    postal_code: p?.postal_code ?? '',
    municipality: p?.municipality ?? '',
    district: p?.district ?? '',
  };
}

/**
 * One subject (`/ekonomicke-subjekty/{ico}`), a search answer (`{ pocetCelkem, ekonomickeSubjekty }`)
 * or a RES answer (`/ekonomicke-subjekty-res/{ico}`: `{ icoId, zaznamy }`, of which the primary
 * record counts), which is where the main activity and the employee category come from.
 */
export function aresSubjects(json: unknown): AresSubject[] {
  if (json && typeof json === 'object' && Array.isArray((json as { zaznamy?: unknown }).zaznamy)) {
    const res = json as { icoId?: string; zaznamy: AresSubject[] };
    const primary = res.zaznamy.find((z) => z.primarniZaznam) ?? res.zaznamy[0];
    return primary ? [{ ...primary, ico: primary.ico ?? res.icoId, fromRes: true } as ResSubject] : [];
  }
  if (json && typeof json === 'object' && Array.isArray((json as { ekonomickeSubjekty?: unknown }).ekonomickeSubjekty)) {
    return (json as { ekonomickeSubjekty: AresSubject[] }).ekonomickeSubjekty;
  }
  if (Array.isArray(json)) return json as AresSubject[];
  if (json && typeof json === 'object' && 'ico' in json) return [json as AresSubject];
  throw new Error('not an ARES ekonomicke-subjekty answer: no ico and no ekonomickeSubjekty');
}
