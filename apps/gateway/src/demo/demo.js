// The demo page's logic: plain browser JavaScript, no build step, only this server's API.
(function () {
  'use strict';
  const DEBOUNCE_MS = 150;
  const $ = (id) => document.getElementById(id);

  // The key: the one the server put in the page, else one the visitor pasted (kept in localStorage).
  const served = document.querySelector('meta[name="lookup-demo-key"]').content;
  const keyInput = $('api-key');
  if (!served) {
    $('key-row').hidden = false;
    keyInput.value = localStorage.getItem('lookup-demo-key') || '';
    keyInput.addEventListener('change', () => localStorage.setItem('lookup-demo-key', keyInput.value.trim()));
  }
  const apiKey = () => served || keyInput.value.trim();

  /** One API call; resolves with the JSON answer or rejects with the compat error's message. */
  async function api(path, params) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.assign({}, params, { api_key: apiKey() })),
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error((body && body.error && body.error.message) || 'HTTP ' + res.status);
    return body;
  }

  const text = (v) => (v === null || v === undefined ? '' : String(v));
  const escapeHtml = (s) => text(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

  /** Counters per box, for the curious and for the browser test. */
  const stats = {};

  /**
   * An autocomplete box: debounced requests, only the answer to the latest keystroke is shown
   * (older answers arriving late are dropped), arrow keys / Enter / Escape, ARIA combobox roles.
   */
  function autocomplete(input, options) {
    const name = input.id;
    const s = (stats[name] = { sent: 0, shown: 0, dropped: 0 });
    const list = document.createElement('ul');
    list.id = name + '-list';
    list.setAttribute('role', 'listbox');
    list.hidden = true;
    input.parentNode.appendChild(list);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', list.id);
    input.setAttribute('aria-expanded', 'false');
    let items = [];
    let active = -1;
    let seq = 0;
    let timer;

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    }
    function message(cls, msg) {
      items = [];
      list.innerHTML = '<li class="' + cls + '">' + escapeHtml(msg) + '</li>';
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }
    function show(found) {
      items = found;
      active = -1;
      if (!found.length) return message('empty', 'Nothing found');
      // `highlight` comes HTML-escaped from the server with <em> around the match (as the official widget expects).
      list.innerHTML = found
        .map((it, i) => '<li role="option" id="' + name + '-opt-' + i + '" aria-selected="false">' + options.label(it) + '</li>')
        .join('');
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }
    function highlight(i) {
      const opts = list.querySelectorAll('li[role=option]');
      if (!opts.length) return;
      active = (i + opts.length) % opts.length;
      opts.forEach((li, j) => li.setAttribute('aria-selected', String(j === active)));
      input.setAttribute('aria-activedescendant', opts[active].id);
      opts[active].scrollIntoView({ block: 'nearest' });
    }
    function choose(i) {
      const it = items[i];
      if (!it) return;
      close();
      options.select(it);
    }
    async function search(q) {
      const mine = ++seq;
      s.sent++;
      try {
        const found = await options.fetch(q);
        if (mine !== seq) return void s.dropped++;
        s.shown++;
        show(found);
      } catch (err) {
        if (mine !== seq) return void s.dropped++;
        message('error', err.message);
      }
    }

    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.trim();
      if (q.length < (options.minLength || 1)) {
        seq++; // whatever is still on its way is stale now
        return close();
      }
      timer = setTimeout(() => search(q), DEBOUNCE_MS);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown') highlight(active + 1);
      else if (e.key === 'ArrowUp') highlight(active - 1);
      else if (e.key === 'Enter' && !list.hidden && active >= 0) choose(active);
      else if (e.key === 'Escape') close();
      else return;
      e.preventDefault();
    });
    list.addEventListener('mousedown', (e) => {
      const li = e.target.closest('li[role=option]');
      if (li) {
        e.preventDefault();
        choose(Number(li.id.slice(li.id.lastIndexOf('-') + 1)));
      }
    });
    input.addEventListener('blur', () => setTimeout(close, 100));
  }

  const country = () => $('country').value;
  const refine = (params) => {
    const municipality = $('municipality').value.trim();
    const postal = $('postal_code').value.trim();
    if (municipality) params.municipality = municipality;
    if (postal) params.postal_code = postal;
    return params;
  };
  const sub = (...parts) => '<small>' + escapeHtml(parts.filter(Boolean).join(', ')) + '</small>';
  const show = (id, lines) => ($(id).textContent = lines.filter((l) => l[1] !== undefined && l[1] !== null && l[1] !== '').map((l) => l[0] + ': ' + l[1]).join('\n'));

  autocomplete($('address'), {
    minLength: 2,
    fetch: (q) => api('/v1/places/query', refine({ query: q, country: country(), limit: 8 })).then((found) => (window.lookupMap && window.lookupMap.show(found), found)),
    label: (p) => p.highlight + sub(p.object === 'address' ? '' : p.object, p.postal_code, p.municipality),
    select: (p) => {
      $('address').value = p.formatted_street || p.street || p.municipality || '';
      if (p.municipality) $('municipality').value = p.municipality;
      if (p.postal_code) $('postal_code').value = p.postal_code;
      if (window.lookupMap) window.lookupMap.focus(p);
      show('address-result', [['place_id', p.place_id], ['address', p.formatted_address], ['municipality', p.municipality], ['postal code', p.postal_code], ['region', p.region], ['position', p.latlng ? p.latlng.lat + ', ' + (p.latlng.lng ?? p.latlng.lon) : '']]);
    },
  });
  autocomplete($('municipality'), {
    fetch: (q) => api('/v1/places/municipality', { query: q, country: country(), limit: 8, ...($('postal_code').value.trim() ? { postal_code: $('postal_code').value.trim() } : {}) }),
    label: (p) => p.highlight + sub(p.county, p.region),
    select: (p) => ($('municipality').value = p.municipality),
  });
  autocomplete($('postal_code'), {
    fetch: (q) => api('/v1/places/postal', { query: q, country: country(), limit: 8, ...($('municipality').value.trim() ? { municipality: $('municipality').value.trim() } : {}) }),
    label: (p) => p.highlight + sub(p.municipality),
    select: (p) => {
      $('postal_code').value = p.postal_code;
      if (p.municipality && !$('municipality').value.trim()) $('municipality').value = p.municipality;
    },
  });
  autocomplete($('business'), {
    minLength: 2,
    fetch: (q) => api('/v1/business/query', { query: q, limit: 8 }),
    label: (b) => b.highlight + sub(b.cin ? 'IČO ' + b.cin : '', b.municipality, b.terminated_on ? 'terminated' : ''),
    select: (b) => {
      $('business').value = b.name;
      show('business-result', [['business_id', b.business_id], ['name', b.name], ['CIN', b.cin], ['VAT', b.vatin], ['address', b.formatted_address], ['legal form', b.legal_form], ['established', b.established_on], ['terminated', b.terminated_on]]);
    },
  });

  // E-mail: one check per submit; a late answer to an older address is dropped like in the boxes.
  let emailSeq = 0;
  stats.email = { sent: 0, shown: 0, dropped: 0 };
  $('email-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const email = $('email').value.trim();
    if (!email) return;
    const mine = ++emailSeq;
    stats.email.sent++;
    $('email-result').textContent = 'Checking ' + email + ' …';
    try {
      const r = await api('/v1/utils/email/validate', { email });
      if (mine !== emailSeq) return void stats.email.dropped++;
      stats.email.shown++;
      show('email-result', [['email', r.email], ['reachable', r.reachable], ['deliverable', r.deliverable], ['disposable', r.disposable], ['role account', r.roleAccount], ['free provider', r.free], ['mail server', r.mxValid], ['took', r.took + ' ms']]);
    } catch (err) {
      if (mine !== emailSeq) return void stats.email.dropped++;
      $('email-result').textContent = 'Error: ' + err.message;
    }
  });

  window.lookupDemo = { stats };
})();
