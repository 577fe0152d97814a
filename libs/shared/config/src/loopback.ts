/**
 * Whether a host name or address is this machine's own: `localhost`, any 127.0.0.0/8 address,
 * `::1` (also bracketed, as in a URL). One notion for the bind address (HOST: the demo page is on
 * by default only there) and the Origin a browser sends (the demo page's key is made for it).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
