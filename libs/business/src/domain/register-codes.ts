/**
 * Code lists the registers publish their values in. Subsets: the common codes; an unknown code
 * keeps the empty string rather than a guess.
 */

/** ČSÚ code list 56 (právní forma), used by RES `FORMA` and ARES `pravniForma`. */
export const CZ_LEGAL_FORMS: Record<string, string> = {
  '100': 'Podnikající osoba tuzemská',
  '101': 'Fyzická osoba podnikající dle živnostenského zákona',
  '102': 'Fyzická osoba podnikající dle živnostenského zákona zapsaná v obchodním rejstříku',
  '105': 'Fyzická osoba podnikající dle jiných zákonů než živnostenského a zákona o zemědělství',
  '107': 'Zemědělský podnikatel - fyzická osoba',
  '111': 'Veřejná obchodní společnost',
  '112': 'Společnost s ručením omezeným',
  '113': 'Společnost komanditní',
  '121': 'Akciová společnost',
  '141': 'Obecně prospěšná společnost',
  '205': 'Družstvo',
  '301': 'Státní podnik',
  '325': 'Organizační složka státu',
  '331': 'Příspěvková organizace',
  '421': 'Odštěpný závod zahraniční právnické osoby',
  '706': 'Spolek',
  '736': 'Pobočný spolek',
  '745': 'Ústav',
  '751': 'Zájmové sdružení právnických osob',
  '801': 'Obec',
  '804': 'Kraj',
  '906': 'Zahraniční spolek',
};

/** Legal forms of natural persons (sole traders): their seat is a home, the name a person's. */
export const CZ_SOLE_TRADER_FORMS = new Set(['100', '101', '102', '105', '107']);

/** ČSÚ code list 579 (KATPO, kategorie počtu pracovníků). */
export const CZ_EMPLOYEE_CATEGORIES: Record<string, string> = {
  '000': 'Neuvedeno',
  '110': 'Bez zaměstnanců',
  '120': '1 - 5 zaměstnanců',
  '130': '6 - 9 zaměstnanců',
  '210': '10 - 19 zaměstnanců',
  '220': '20 - 24 zaměstnanců',
  '230': '25 - 49 zaměstnanců',
  '240': '50 - 99 zaměstnanců',
  '310': '100 - 199 zaměstnanců',
  '320': '200 - 249 zaměstnanců',
  '330': '250 - 499 zaměstnanců',
  '340': '500 - 999 zaměstnanců',
  '410': '1000 - 1499 zaměstnanců',
  '420': '1500 - 1999 zaměstnanců',
  '430': '2000 - 2499 zaměstnanců',
  '440': '2500 - 2999 zaměstnanců',
  '450': '3000 - 3999 zaměstnanců',
  '460': '4000 - 4999 zaměstnanců',
  '470': '5000 - 9999 zaměstnanců',
  '500': '10000 a více zaměstnanců',
};

/** NACE Rev. 2 sections by division (first two digits): the `segment`. */
const NACE_SECTIONS: Array<{ from: number; to: number; cz: string; sk: string }> = [
  { from: 1, to: 3, cz: 'Zemědělství, lesnictví a rybářství', sk: 'Poľnohospodárstvo, lesníctvo a rybolov' },
  { from: 5, to: 9, cz: 'Těžba a dobývání', sk: 'Ťažba a dobývanie' },
  { from: 10, to: 33, cz: 'Zpracovatelský průmysl', sk: 'Priemyselná výroba' },
  { from: 35, to: 35, cz: 'Výroba a rozvod elektřiny, plynu, tepla a klimatizovaného vzduchu', sk: 'Dodávka elektriny, plynu, pary a studeného vzduchu' },
  { from: 36, to: 39, cz: 'Zásobování vodou; činnosti související s odpadními vodami, odpady a sanacemi', sk: 'Dodávka vody; čistenie a odvod odpadových vôd, odpady a služby odstraňovania odpadov' },
  { from: 41, to: 43, cz: 'Stavebnictví', sk: 'Stavebníctvo' },
  { from: 45, to: 47, cz: 'Velkoobchod a maloobchod; opravy a údržba motorových vozidel', sk: 'Veľkoobchod a maloobchod; oprava motorových vozidiel a motocyklov' },
  { from: 49, to: 53, cz: 'Doprava a skladování', sk: 'Doprava a skladovanie' },
  { from: 55, to: 56, cz: 'Ubytování, stravování a pohostinství', sk: 'Ubytovacie a stravovacie služby' },
  { from: 58, to: 63, cz: 'Informační a komunikační činnosti', sk: 'Informácie a komunikácia' },
  { from: 64, to: 66, cz: 'Peněžnictví a pojišťovnictví', sk: 'Finančné a poisťovacie činnosti' },
  { from: 68, to: 68, cz: 'Činnosti v oblasti nemovitostí', sk: 'Činnosti v oblasti nehnuteľností' },
  { from: 69, to: 75, cz: 'Profesní, vědecké a technické činnosti', sk: 'Odborné, vedecké a technické činnosti' },
  { from: 77, to: 82, cz: 'Administrativní a podpůrné činnosti', sk: 'Administratívne a podporné služby' },
  { from: 84, to: 84, cz: 'Veřejná správa a obrana; povinné sociální zabezpečení', sk: 'Verejná správa a obrana; povinné sociálne zabezpečenie' },
  { from: 85, to: 85, cz: 'Vzdělávání', sk: 'Vzdelávanie' },
  { from: 86, to: 88, cz: 'Zdravotní a sociální péče', sk: 'Zdravotníctvo a sociálna pomoc' },
  { from: 90, to: 93, cz: 'Kulturní, zábavní a rekreační činnosti', sk: 'Umenie, zábava a rekreácia' },
  { from: 94, to: 96, cz: 'Ostatní činnosti', sk: 'Ostatné činnosti' },
  { from: 97, to: 98, cz: 'Činnosti domácností jako zaměstnavatelů', sk: 'Činnosti domácností ako zamestnávateľov' },
  { from: 99, to: 99, cz: 'Činnosti exteritoriálních organizací a orgánů', sk: 'Činnosti extrateritoriálnych organizácií a združení' },
];

/** The section name of a NACE code (`29100`, `291`, `29`); empty when the code says nothing. */
export function naceSegment(code: string | null | undefined, country: 'CZ' | 'SK'): string {
  const digits = (code ?? '').replace(/\D/g, '');
  if (digits.length < 2) return '';
  const division = Number(digits.slice(0, 2));
  const s = NACE_SECTIONS.find((x) => division >= x.from && division <= x.to);
  return s ? (country === 'CZ' ? s.cz : s.sk) : '';
}

export function czLegalForm(code: string | null | undefined): string {
  return code ? (CZ_LEGAL_FORMS[code.trim()] ?? '') : '';
}

export function czOrganizationSize(katpo: string | null | undefined): string {
  return katpo ? (CZ_EMPLOYEE_CATEGORIES[katpo.trim()] ?? '') : '';
}
