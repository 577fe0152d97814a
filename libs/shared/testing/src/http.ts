/** Small HTTP helpers for e2e tests (loopback only). */
export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function post<T = unknown>(
  base: string,
  path: string,
  body: string | Record<string, unknown> | undefined,
  init: { headers?: Record<string, string>; method?: string; contentType?: string } = {},
): Promise<HttpResult<T>> {
  const isForm = typeof body === 'string';
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (body !== undefined) headers['content-type'] = init.contentType ?? (isForm ? 'application/x-www-form-urlencoded' : 'application/json');
  const res = await fetch(base + path, {
    method: init.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(20000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** The compat error body's fields, for compact assertions. */
export function errorOf(r: HttpResult): { status: number; type?: string; code?: string; param?: string | null } {
  const e = (r.body as { error?: { type?: string; code?: string; param?: string | null } } | null)?.error;
  return { status: r.status, type: e?.type, code: e?.code, param: e?.param };
}
