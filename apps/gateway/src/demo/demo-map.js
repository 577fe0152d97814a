// The demo page's map: Leaflet (served from node_modules under /demo/leaflet), a marker per
// suggestion, a click for a reverse lookup. Tiles only when DEMO_TILE_URL is set; without them
// the map is a plain grid and still places markers and answers clicks.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const key = () => document.querySelector('meta[name="lookup-demo-key"]').content || ($('api-key') && $('api-key').value.trim());
  const tileUrl = document.querySelector('meta[name="lookup-tile-url"]').content;

  // S-JTSK (Krovak) with the 7-parameter shift: the same definition as libs/places/src/geo/sjtsk.ts
  // (a spec checks they are equal); the often-copied epsg.io string is off by up to 16 m.
  const SJTSK_PROJ4 =
    '+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 ' +
    '+ellps=bessel +towgs84=572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378 +units=m +no_defs';
  const toJtsk = (lat, lng) => {
    const en = proj4(SJTSK_PROJ4).forward([lng, lat]);
    return { x: -en[1], y: -en[0] }; // Czech/Slovak practice: both positive, X the north-south axis
  };

  const map = L.map('map', { zoomControl: true, attributionControl: !!tileUrl }).setView([49.2, 17.5], 6);
  if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 19, attribution: 'Map tiles: ' + new URL(tileUrl.replace(/\{[^}]*\}/g, 'x')).host }).addTo(map);
  else {
    map.getContainer().classList.add('no-tiles');
    $('map-tiles-note').hidden = false;
  }
  L.Icon.Default.imagePath = '/demo/leaflet/images/';
  const markers = L.layerGroup().addTo(map);
  const clicked = L.layerGroup().addTo(map);
  const stats = { shown: 0, reverse: 0 };

  const posOf = (p) => (p && p.latlng && typeof p.latlng.lat === 'number' ? [p.latlng.lat, p.latlng.lng] : null);
  const label = (p) => p.formatted_address || p.municipality || p.postal_code || p.place_id;

  /** One marker per suggestion that has a position; the view fits them. */
  function show(found) {
    markers.clearLayers();
    const points = [];
    for (const p of found) {
      const pos = posOf(p);
      if (!pos) continue;
      points.push(pos);
      L.marker(pos, { title: label(p) }).bindTooltip(label(p)).addTo(markers);
    }
    stats.shown = points.length;
    if (points.length === 1) map.setView(points[0], 16, { animate: false });
    else if (points.length > 1) map.fitBounds(points, { padding: [30, 30], maxZoom: 16, animate: false });
  }
  function focus(p) {
    const pos = posOf(p);
    if (pos) map.setView(pos, 17, { animate: false });
  }

  map.on('click', async (e) => {
    const lat = Number(e.latlng.lat.toFixed(6));
    const lng = Number(e.latlng.lng.toFixed(6));
    const country = $('country').value;
    const jtsk = country === 'CZ' || country === 'SK' ? toJtsk(lat, lng) : null;
    clicked.clearLayers();
    L.circleMarker([lat, lng], { radius: 6, color: '#b3261e' }).addTo(clicked);
    const lines = ['clicked: ' + lat + ', ' + lng + (jtsk ? '  (S-JTSK X ' + jtsk.x.toFixed(2) + ', Y ' + jtsk.y.toFixed(2) + ')' : '')];
    $('map-result').textContent = lines.concat('looking up the nearest address …').join('\n');
    try {
      const res = await fetch('/v1/places/reverse', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lat, lng, country, limit: 1, api_key: key() }),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error((body && body.error && body.error.message) || 'HTTP ' + res.status);
      stats.reverse++;
      const p = body[0];
      if (!p) lines.push('nearest address: none found');
      else {
        lines.push('nearest address: ' + label(p), 'place_id: ' + p.place_id);
        const pos = posOf(p);
        if (pos) L.circleMarker(pos, { radius: 8, color: '#2f6fde' }).bindTooltip(label(p)).addTo(clicked);
      }
    } catch (err) {
      lines.push('reverse lookup failed: ' + err.message);
    }
    $('map-result').textContent = lines.join('\n');
  });

  window.lookupMap = { show, focus, map, stats, toJtsk };
})();
