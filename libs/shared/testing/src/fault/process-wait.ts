/** Polls `probe` until it resolves true or the deadline passes. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms`);
}
