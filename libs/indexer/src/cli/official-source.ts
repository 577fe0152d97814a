import { CountryCode } from '@lookup/contracts';
import { AppConfig } from '@lookup/shared/config';
import { DatasetKind } from '../datasets/dataset-event';
import { loadScheduledSources } from '../scheduler/scheduler-sources';
import { ImportUsageError } from './import-args';

/**
 * The official URLs a dataset may be at now, best first: the scheduler's configured source for
 * that country and kind, then the publisher's naming rule. RUIAN publishes the monthly address
 * product as `<last day of the previous month>_OB_ADR_csv.zip` some days into the month, so the
 * month before is tried next.
 */
export function officialCandidates(country: CountryCode, kind: DatasetKind, config: Pick<AppConfig, 'SCHEDULER_SOURCES' | 'RUIAN_CSV_BASE_URL'>, now = new Date()): string[] {
  const out = loadScheduledSources(config.SCHEDULER_SOURCES)
    .filter((s) => s.country === country && s.kind === kind)
    .map((s) => s.url);
  if (country === 'CZ' && kind === 'addresses') {
    for (const back of [0, 1]) {
      const lastDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 0));
      const stamp = lastDay.toISOString().slice(0, 10).replace(/-/g, '');
      out.push(`${config.RUIAN_CSV_BASE_URL.replace(/\/+$/, '')}/${stamp}_OB_ADR_csv.zip`);
    }
  }
  return out;
}

/** The first candidate the publisher answers 2xx to a HEAD request (each with a timeout). */
export async function resolveOfficialUrl(country: CountryCode, kind: DatasetKind, config: Pick<AppConfig, 'SCHEDULER_SOURCES' | 'RUIAN_CSV_BASE_URL' | 'DOWNLOAD_TIMEOUT_MS'>, now = new Date()): Promise<string> {
  const candidates = officialCandidates(country, kind, config, now);
  if (!candidates.length) throw new ImportUsageError(`location: no official source is known for ${kind} of ${country}; give the file (or set SCHEDULER_SOURCES)`);
  const tried: string[] = [];
  for (const url of candidates) {
    try {
      const res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(config.DOWNLOAD_TIMEOUT_MS) });
      if (res.ok) return url;
      tried.push(`${url}: ${res.status}`);
    } catch (err) {
      tried.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new Error(`location: none of the official sources answered: ${tried.join('; ')}`);
}
