import { DomainError, ErrorTypes } from '@lookup/contracts';

/** The body of VIES's `POST /check-vat-number` (REST API of the EU VIES service). */
export interface ViesRequestBody {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string;
  requesterNumber?: string;
  traderName?: string;
  traderStreet?: string;
  traderPostalCode?: string;
  traderCity?: string;
  traderCompanyType?: string;
}

/** VIES's answer. `userError` is VALID or INVALID when it checked the number, else its failure code. */
export interface ViesAnswer {
  countryCode?: string;
  vatNumber?: string;
  requestDate?: string;
  valid?: boolean;
  requestIdentifier?: string;
  name?: string;
  address?: string;
  userError?: string;
  traderName?: string;
  traderStreet?: string;
  traderPostalCode?: string;
  traderCity?: string;
  traderCompanyType?: string;
  traderNameMatch?: string;
  traderStreetMatch?: string;
  traderPostalCodeMatch?: string;
  traderCityMatch?: string;
  traderCompanyTypeMatch?: string;
}

/** Failures that say nothing about the number and usually pass: worth another try. */
export const VIES_TRANSIENT = new Set([
  'MS_UNAVAILABLE',
  'MS_MAX_CONCURRENT_REQ',
  'MS_MAX_CONCURRENT_REQ_TIME',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ_TIME',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
]);
const ANSWERS = new Set(['VALID', 'INVALID']);

export interface ViesClientOptions {
  baseUrl: string;
  /** One attempt. */
  timeoutMs: number;
  /** All attempts and waits together. */
  deadlineMs: number;
  retries: number;
  retryBaseMs: number;
}

/** One attempt's outcome: an answer, or a failure code (and whether another try may help). */
type Attempt = { answer: ViesAnswer } | { code: string; transient: boolean; detail: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The VIES REST adapter. VIES reports its own trouble in two ways, both handled: HTTP 200 with
 * `valid: false` and a `userError` code, or `{actionSucceed: false, errorWrappers: [{error}]}`.
 * Neither is ever read as "the number is invalid".
 */
export class ViesClient {
  constructor(private readonly options: ViesClientOptions) {}

  async check(body: ViesRequestBody): Promise<ViesAnswer> {
    const t0 = Date.now();
    const deadline = t0 + this.options.deadlineMs;
    let last: Exclude<Attempt, { answer: ViesAnswer }> = { code: 'TIMEOUT', transient: true, detail: 'no attempt finished' };
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const result = await this.attempt(body, Math.min(this.options.timeoutMs, left));
      if ('answer' in result) return result.answer;
      last = result;
      if (!result.transient) break;
      const wait = this.options.retryBaseMs * 2 ** attempt;
      if (attempt === this.options.retries || Date.now() + wait >= deadline) break;
      await sleep(wait);
    }
    throw toDomainError(last);
  }

  private async attempt(body: ViesRequestBody, timeoutMs: number): Promise<Attempt> {
    let res: Response;
    try {
      res = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}/check-vat-number`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
      return { code: timedOut ? 'TIMEOUT' : 'SERVICE_UNAVAILABLE', transient: true, detail: timedOut ? `no answer within ${timeoutMs} ms` : 'VIES could not be reached' };
    }
    const text = await res.text().catch(() => '');
    let json: (ViesAnswer & { actionSucceed?: boolean; errorWrappers?: Array<{ error?: string; message?: string }> }) | undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const wrapped = json?.errorWrappers?.[0];
    if (wrapped?.error) return { code: wrapped.error, transient: VIES_TRANSIENT.has(wrapped.error), detail: wrapped.message ?? '' };
    if (!res.ok || !json || typeof json !== 'object') {
      return { code: 'SERVICE_UNAVAILABLE', transient: res.status >= 500 || res.status === 429, detail: `HTTP ${res.status}` };
    }
    const code = json.userError;
    if (code && !ANSWERS.has(code)) return { code, transient: VIES_TRANSIENT.has(code), detail: '' };
    if (typeof json.valid !== 'boolean') return { code: 'SERVICE_UNAVAILABLE', transient: true, detail: 'the answer had no verdict' };
    return { answer: json };
  }
}

/** VIES's codes as our errors: the caller's input (400, naming the field) or "could not be checked now" (503). */
export function toDomainError(f: { code: string; detail: string }): DomainError {
  switch (f.code) {
    case 'INVALID_INPUT':
      return DomainError.invalidParameter('vatNumber', 'VIES refused the country code or VAT number as malformed.');
    case 'INVALID_REQUESTER_INFO':
      return DomainError.invalidParameter('requesterNumber', 'VIES refused the requester member state or number.');
    default: {
      const why = f.detail ? ` (${f.detail})` : '';
      return new DomainError(
        ErrorTypes.serviceUnavailable,
        `The VAT number could not be checked now: VIES answered ${f.code}${why}. This says nothing about the number; try again later.`,
        null,
        503,
        VIES_TRANSIENT.has(f.code) ? 60 : undefined,
      );
    }
  }
}
