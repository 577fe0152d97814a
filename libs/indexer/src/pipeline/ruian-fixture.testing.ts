import { join } from 'node:path';
import { writeTestZip } from '@lookup/shared/testing';

const HEADER =
  'Kod ADM;Kod obce;Nazev obce;Kod MOMC;Nazev MOMC;Kod obvodu Prahy;Nazev obvodu Prahy;Kod casti obce;Nazev casti obce;Kod ulice;Nazev ulice;Typ SO;Cislo domovni;Cislo orientacni;Znak cisla orientacniho;PSC;Souradnice Y;Souradnice X;Plati Od';

/**
 * A RUIAN address zip of invented rows (the official per-municipality `*_ADR.csv` layout, ASCII
 * so it reads the same as windows-1250), in the bundled catalogue's municipality 500011. `streetPrefix`
 * makes two versions tell apart: `Stara` rows vs `Nova` rows. Returns the zip's path.
 */
export function writeRuianFixture(dir: string, opts: { rows: number; streetPrefix: string; files?: number; admBase?: number; name?: string }): string {
  const files = opts.files ?? 8;
  const perFile = Math.ceil(opts.rows / files);
  const entries: { name: string; data: string; deflate: boolean }[] = [];
  let adm = opts.admBase ?? 90_000_000;
  for (let f = 0; f < files; f++) {
    const lines = [HEADER];
    for (let i = 0; i < perFile && f * perFile + i < opts.rows; i++) {
      const n = f * perFile + i;
      const street = Math.floor(n / 100);
      const y = (515000 + (n % 1000) * 1.5).toFixed(2);
      const x = (1166000 + Math.floor(n / 1000) * 1.5).toFixed(2);
      lines.push(`${adm++};500011;Zelechovice nad Drevnici;;;;;195901;Zelechovice nad Drevnici;${800000 + street};${opts.streetPrefix}${street};c.p.;${(n % 100) + 1};;;76311;${y};${x};2014-02-12T00:00:00`);
    }
    entries.push({ name: `20231231_OB_${500011 + f}_ADR.csv`, data: lines.join('\r\n') + '\r\n', deflate: true });
  }
  const path = join(dir, opts.name ?? `${opts.streetPrefix}.zip`);
  writeTestZip(path, entries);
  return path;
}
