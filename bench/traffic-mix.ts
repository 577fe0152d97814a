/** One request of the benchmark mix. */
export interface MixRequest {
  kind: 'keystroke' | 'detail' | 'reverse' | 'business';
  path: string;
  body: string;
}

export interface MixSeeds {
  /** Words typed letter by letter (street or municipality names). */
  placeWords: string[];
  businessWords: string[];
  placeIds: string[];
  positions: Array<{ lat: number; lng: number }>;
}

/** Every prefix of length >= 2 of a word, as an autocomplete widget sends them while typing. */
export function keystrokes(word: string): string[] {
  const out: string[] = [];
  for (let i = 2; i <= word.length; i++) out.push(word.slice(0, i));
  return out;
}

/**
 * A deterministic request list with the agreed mix: autocomplete keystroke sequences (place
 * search), place detail, reverse geocoding and business autocomplete. Cycled by the load tool.
 */
export function buildMix(seeds: MixSeeds, key: string, size = 2000): MixRequest[] {
  const json = (o: Record<string, unknown>) => JSON.stringify({ ...o, api_key: key });
  // The widget's defaults (compat-notes): CZ,SK,PL, contextType=preference, around_latlng_via_ip=true.
  const widget = { country: 'CZ,SK,PL', contextType: 'preference', around_latlng_via_ip: 'true', limit: 7 };
  const places = seeds.placeWords.flatMap((w) => keystrokes(w).map((q) => ({ kind: 'keystroke' as const, path: '/v1/places/query', body: json({ ...widget, query: q }) })));
  const business = seeds.businessWords.flatMap((w) => keystrokes(w).map((q) => ({ kind: 'business' as const, path: '/v1/business/query', body: json({ query: q, limit: 10 }) })));
  const detail = seeds.placeIds.map((id) => ({ kind: 'detail' as const, path: `/v1/places/${encodeURIComponent(id)}`, body: json({}) }));
  const reverse = seeds.positions.map((p) => ({ kind: 'reverse' as const, path: '/v1/places/reverse', body: json({ lat: p.lat, lng: p.lng }) }));
  // Out of 20: 12 keystrokes, 3 details, 2 reverse, 3 business.
  const pattern: Array<[MixRequest[], number]> = [[places, 12], [detail, 3], [reverse, 2], [business, 3]];
  const out: MixRequest[] = [];
  const cursor = new Map<MixRequest[], number>();
  while (out.length < size) {
    for (const [list, n] of pattern) {
      if (!list.length) continue;
      for (let i = 0; i < n; i++) {
        const c = cursor.get(list) ?? 0;
        out.push(list[c % list.length]);
        cursor.set(list, c + 1);
      }
    }
    if (!places.length && !detail.length && !reverse.length && !business.length) throw new Error('no seeds for the benchmark mix');
  }
  return out.slice(0, size);
}
