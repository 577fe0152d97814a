import { DomainError, ErrorTypes } from '@lookup/contracts';

/** What a provider said when it refused: status, its own message, its Retry-After. */
export interface ProviderFailure {
  status: number;
  message: string;
  retryAfter?: number;
}

/**
 * One JSON request to a provider with a hard timeout. Network failures and timeouts become our
 * errors here; HTTP refusals are handed to the adapter's mapper, which knows the provider's codes.
 */
export async function providerJson<T>(
  provider: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs: number },
  onFailure: (f: ProviderFailure) => DomainError,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'POST',
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new DomainError(ErrorTypes.timeout, `The translation provider (${provider}) did not answer within ${init.timeoutMs} ms.`);
    }
    throw new DomainError(ErrorTypes.serviceUnavailable, `The translation provider (${provider}) could not be reached.`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const retry = Number(res.headers.get('retry-after'));
    throw onFailure({ status: res.status, message: errorMessage(text), retryAfter: Number.isFinite(retry) && retry > 0 ? retry : undefined });
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new DomainError(ErrorTypes.serviceUnavailable, `The translation provider (${provider}) sent an answer that is not JSON.`);
  }
}

/** The human part of a provider's error body: Google `{error:{message}}`, DeepL `{message}`, LibreTranslate `{error}`. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (body.error && typeof (body.error as { message?: unknown }).message === 'string') return (body.error as { message: string }).message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200);
}

/** Refusals every provider shares: throttling (ours to pass on) and its own faults (503). */
export function commonFailure(provider: string, f: ProviderFailure): DomainError {
  if (f.status === 429) {
    return new DomainError(ErrorTypes.rateLimit, `The translation provider (${provider}) is throttling requests; try again shortly.`, null, undefined, f.retryAfter ?? 1);
  }
  if (f.status === 401 || f.status === 403) {
    return new DomainError(ErrorTypes.serviceUnavailable, `The translation provider (${provider}) refused this server's credentials.`);
  }
  if (f.status >= 500) return new DomainError(ErrorTypes.serviceUnavailable, `The translation provider (${provider}) failed (HTTP ${f.status}).`);
  return new DomainError(ErrorTypes.serviceUnavailable, `The translation provider (${provider}) refused the request (HTTP ${f.status}): ${f.message}`);
}
