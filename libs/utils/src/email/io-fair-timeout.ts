/**
 * A timeout that lets I/O already waiting go first. After a stalled event loop (a long
 * synchronous task elsewhere in the process, a GC pause) Node runs due timers before it reads
 * sockets, so an answer that arrived in time would lose to its own deadline. Deferring the
 * callback by one `setImmediate` puts it after the poll phase that delivers that answer.
 * Returns the cancel function.
 */
export function ioFairTimeout(fn: () => void, ms: number): () => void {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(fn);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}
