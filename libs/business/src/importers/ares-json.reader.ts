import { padCin } from '../domain/cin';
import { BusinessDoc, businessIdFor } from '../domain/business.doc';
import { czLegalForm, naceSegment } from '../domain/register-codes';
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
  czNace?: string[];
  seznamRegistraci?: { stavZdrojeDph?: string; [k: string]: string | undefined };
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
  const dic = s.dic?.trim() || null;
  const form = (s.pravniForma ?? '').trim();
  return {
    business_id: businessIdFor('CZ', cin),
    country: 'CZ',
    name,
    established_on: resDate(s.datumVzniku),
    terminated_on: resDate(s.datumZaniku),
    cin,
    tin: dic,
    vatin: dic && s.seznamRegistraci?.stavZdrojeDph === ARES_ACTIVE ? dic : null,
    ...(s.sidlo ? sidloAddress(s.sidlo) : pickAddress(previous)),
    legal_form: czLegalForm(form) || previous?.legal_form || '',
    legal_form_code: form || previous?.legal_form_code || '',
    segment: naceSegment(s.czNace?.[0], 'CZ') || previous?.segment || '',
    organization_size: previous?.organization_size ?? '',
  };
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

/** One subject (`/ekonomicke-subjekty/{ico}`) or a search answer (`{ pocetCelkem, ekonomickeSubjekty }`). */
export function aresSubjects(json: unknown): AresSubject[] {
  if (json && typeof json === 'object' && Array.isArray((json as { ekonomickeSubjekty?: unknown }).ekonomickeSubjekty)) {
    return (json as { ekonomickeSubjekty: AresSubject[] }).ekonomickeSubjekty;
  }
  if (Array.isArray(json)) return json as AresSubject[];
  if (json && typeof json === 'object' && 'ico' in json) return [json as AresSubject];
  throw new Error('not an ARES ekonomicke-subjekty answer: no ico and no ekonomickeSubjekty');
}
