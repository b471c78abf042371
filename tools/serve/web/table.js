// picket-serve's table: plain JavaScript, no build step. Everything shown comes from the server's
// snapshot of the person's own seat (GET /api/game/ID); moves go back as notation or as cards.
'use strict';

const PRESETS = {
  'picket': ['cotgrave', 'cotton', 'ducoeur-letter', 'ducoeur-report', 'cavendish'],
  'court-circular': ['carroll'],
};
const SUITS = { C: ['\u2663', 'clubs'], D: ['\u2666', 'diamonds'], H: ['\u2665', 'hearts'], S: ['\u2660', 'spades'] };
const RANKS = { A: ['A', 'ace'], K: ['K', 'king'], Q: ['Q', 'queen'], J: ['J', 'jack'], T: ['10', 'ten'],
  9: ['9', 'nine'], 8: ['8', 'eight'], 7: ['7', 'seven'], 6: ['6', 'six'], 5: ['5', 'five'], 4: ['4', 'four'],
  3: ['3', 'three'], 2: ['2', 'two'] };

const $ = (id) => document.getElementById(id);
const st = { id: null, seq: -1, snap: null, events: [], marked: new Set(), polling: false, info: null,
  trick: [], lastTrick: null }; // the trick's cards as played; the last one kept until the person moves on

// Follow the plays in the events: a trick's cards, and once it is won, the last trick.
function followTrick(e) {
  let m;
  if ((m = /^play (\d) (\w\w)$/.exec(e))) st.trick.push({ seat: +m[1], card: m[2] });
  else if ((m = /^trick \d+ won-by (\d)$/.exec(e)) || (m = /^won (\d)/.exec(e))) {
    st.lastTrick = { winner: +m[1], cards: st.trick };
    st.trick = [];
  }
}

function cardName(c) { return `${RANKS[c[0]][1]} of ${SUITS[c[1]][1]}`; }

function cardElement(c, small) {
  const el = document.createElement(small ? 'span' : 'button');
  el.className = 'card' + (small ? ' small' : '') + (c[1] === 'H' || c[1] === 'D' ? ' red' : '');
  el.dataset.card = c;
  el.setAttribute(small ? 'aria-label' : 'aria-label', cardName(c));
  if (small) el.setAttribute('role', 'img');
  const r = document.createElement('span'); r.textContent = RANKS[c[0]][0];
  const s = document.createElement('span'); s.className = 'suit'; s.textContent = SUITS[c[1]][0];
  el.append(r, s);
  return el;
}

function who(seat) {
  if (!st.snap || seat < 0) return '';
  return seat === st.snap.seat ? 'you' : `${st.snap.names[seat]} (seat ${seat})`;
}

// An event in words: the seat numbers after the verb become names.
function talk(text) {
  let m;
  if ((m = /^trick (\d+) won-by (\d+)$/.exec(text))) return `trick ${m[1]} won by ${who(+m[2])}`;
  if ((m = /^hand (\d+) dealer (\d+) stock (\d+)$/.exec(text))) return `hand ${m[1]}: ${who(+m[2])} deal${+m[2] === st.snap.seat ? '' : 's'}; ${m[3]} cards in the stock`;
  if ((m = /^set-end winner (\d+)$/.exec(text))) return `the set is over: ${who(+m[1])} win${+m[1] === st.snap.seat ? '' : 's'}`;
  if ((m = /^set-end winner (\d+) points (\d+) (rubicon|crossed)$/.exec(text)))
    return `the partie is over: ${who(+m[1])} win${+m[1] === st.snap.seat ? '' : 's'} ${m[2]} points${m[3] === 'rubicon' ? ', a rubicon' : ''}`;
  if (text === 'set-end drawn') return 'the partie is over: drawn';
  if ((m = /^cut (\S+) (\S+) chooser (\d+)$/.exec(text))) return `cut ${m[1]} ${m[2]}: ${who(+m[3])} cut higher and choose${+m[3] === st.snap.seat ? '' : 's'} whether to deal first`;
  if ((m = /^([a-z-]+) (\d) ?(.*)$/.exec(text)) && +m[2] < st.snap.players) return `${who(+m[2])}: ${m[1]} ${m[3]}`;
  return text;
}

async function api(path, body) {
  const opt = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const r = await fetch(path, opt);
  const j = await r.json().catch(() => ({ error: `the server answered ${r.status}` }));
  if (!r.ok) throw new Error(j.error || `the server answered ${r.status}`);
  return j;
}

function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }

// ------------------------------------------------------------------ the new-set form

function fillSelect(sel, values, labels) {
  sel.replaceChildren(...values.map((v, i) => { const o = document.createElement('option'); o.value = v; o.textContent = labels ? labels[i] : v; return o; }));
}

function formChanged() {
  const game = $('f-game').value;
  const keep = $('f-preset').value;
  fillSelect($('f-preset'), PRESETS[game] || ['']);
  if ((PRESETS[game] || []).includes(keep)) $('f-preset').value = keep;
  const many = game === 'court-circular';
  $('l-players').hidden = !many;
  if (!many) $('f-players').value = '2';
  const n = +$('f-players').value;
  const seat = Math.min(+$('f-seat').value || 0, n - 1);
  fillSelect($('f-seat'), [...Array(n).keys()].map(String));
  $('f-seat').value = String(seat);
}

async function newSet(ev) {
  ev.preventDefault();
  showError('');
  const body = { game: $('f-game').value, preset: $('f-preset').value, players: +$('f-players').value,
    seat: +$('f-seat').value, engine: $('f-engine').value };
  const seed = $('f-seed').value.trim();
  if (seed) body.seed = seed;
  const flags = $('f-flags').value.trim();
  if (flags) body.flags = flags.split(/[\s,]+/);
  try { start((await api('/api/new', body)).id); } catch (e) { showError(e); }
}

async function resume() {
  const f = $('f-resume').files[0];
  if (!f) return;
  showError('');
  try {
    const text = await f.text();
    start((await api('/api/resume', { record: text, engine: $('f-engine').value })).id);
  } catch (e) { showError(e); }
  $('f-resume').value = '';
}

function start(id) {
  delete document.body.dataset.game;
  st.id = id; st.seq = -1; st.events = []; st.marked.clear(); st.snap = null; st.trick = []; st.lastTrick = null;
  $('talk').replaceChildren(); $('hints').replaceChildren();
  show('main');
  history.replaceState(null, '', `#g=${id}`);
  $('b-save').href = `/api/game/${id}/record`;
  if (!st.polling) poll();
}

// ------------------------------------------------------------------ the table

async function poll() {
  st.polling = true;
  while (st.id) {
    const id = st.id;
    try {
      const s = await api(`/api/game/${id}?${st.seq >= 0 ? `since=${st.seq}&` : ''}from=${st.events.length}`);
      if (id !== st.id) continue;
      if (s.events_from !== st.events.length) {
        st.events = []; st.trick = []; st.lastTrick = null; $('talk').replaceChildren();
        if (s.events_from !== 0) { st.seq = -1; continue; }
      }
      st.snap = s; st.seq = s.seq;
      for (const e of s.events) { st.events.push(e); followTrick(e); }
      render(s.events);
    } catch (e) {
      showError(e);
      if (/no such game/.test(e.message)) { st.id = null; break; }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  st.polling = false;
}

function render(newEvents) {
  const s = st.snap;
  document.body.dataset.game = st.id; // the table shown is this game's (tests wait on it)
  // seats and scores
  const seats = [];
  const scores = s.table ? s.table.scores : [];
  for (let i = 0; i < s.players; i++) {
    const d = document.createElement('div');
    d.className = 'seat' + (s.to_move === i ? ' to-move' : '');
    d.textContent = `${who(i)}: ${scores[i] ?? ''}`;
    seats.push(d);
  }
  $('seats').replaceChildren(...seats);
  // the felt
  // The last trick stays on the table until the person moves on (the server's own is dropped).
  const shown = (s.table ? s.table.piles : []).filter((p) => p.label !== 'last trick');
  if (st.lastTrick && st.lastTrick.cards.length)
    shown.unshift({ label: `last trick, won by ${who(st.lastTrick.winner)}`, seat: -1, cards: st.lastTrick.cards.map((x) => x.card) });
  const piles = shown.map((p) => {
    const d = document.createElement('div'); d.className = 'pile';
    const label = document.createElement('div'); label.textContent = p.seat >= 0 ? `${p.label}: ${who(p.seat)}` : p.label;
    const cards = document.createElement('div'); cards.className = 'cards';
    cards.append(...p.cards.map((c) => cardElement(c, true)));
    d.append(label, cards); return d;
  });
  $('felt').replaceChildren(...piles);
  // status
  const status = $('status');
  status.className = s.status === 'fault' ? 'fault' : '';
  status.textContent = s.status === 'your-move' ? 'Your move.' : s.status === 'thinking' ? `${who(s.to_move)} is thinking...`
    : s.status === 'fault' ? `The set stopped: ${s.fault}` : `The set is over.${s.seed ? ' Seed ' + s.seed + '.' : ''}`;
  $('b-restart').hidden = s.status !== 'fault';
  $('b-takeback').disabled = !s.can_take_back || s.status === 'thinking';
  $('b-hint').disabled = s.status !== 'your-move' || !(st.info && st.info.hints);
  renderHand(s);
  // talk
  const talkEl = $('talk');
  for (const e of newEvents) {
    if (e.startsWith('turn ')) continue;
    const li = document.createElement('li'); li.textContent = talk(e); talkEl.append(li);
  }
  talkEl.scrollTop = talkEl.scrollHeight;
  // this hand, the sheet
  const cats = s.table ? s.table.categories : [];
  const head = `<tr><th>category</th>${[...Array(s.players).keys()].map((i) => `<th>${esc(who(i))}</th>`).join('')}</tr>`;
  $('cats').innerHTML = head + cats.filter((c) => c.points.some((p) => p)).map((c) =>
    `<tr><td>${esc(c.name)}</td>${c.points.map((p) => `<td>${p}</td>`).join('')}</tr>`).join('');
  $('lines').replaceChildren(...(s.table ? s.table.lines : []).map((l) => { const li = document.createElement('li'); li.textContent = l; return li; }));
  $('sheet').innerHTML = `<tr><th>hand</th>${[...Array(s.players).keys()].map((i) => `<th>${esc(who(i))}</th>`).join('')}</tr>` +
    s.sheet.map((r) => `<tr><td>${r.hand}</td>${r.points.map((p, i) => `<td>${p >= 0 ? '+' : ''}${p} = ${r.scores[i]}</td>`).join('')}</tr>` +
      (r.categories.length ? `<tr class="cats"><td colspan="${s.players + 1}">${r.categories.map((c) => `${esc(c.name)} ${c.points.join('-')}`).join(', ')}</td></tr>` : '')).join('');
}

function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

// The moves that hold exactly this set of cards.
function movesWith(cards) {
  const key = [...cards].sort().join(' ');
  return (st.snap.moves || []).filter((m) => m.cards.length && [...m.cards].sort().join(' ') === key);
}

function renderHand(s) {
  const mine = s.status === 'your-move';
  const lit = new Set(mine ? s.cards_lit : []);
  const hand = s.table ? s.table.hand : [];
  for (const c of [...st.marked]) if (!hand.includes(c) || !mine) st.marked.delete(c);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  const els = hand.map((c) => {
    const b = cardElement(c, false);
    b.classList.add(lit.has(c) ? 'lit' : 'dim');
    if (st.marked.has(c)) { b.classList.add('marked'); b.setAttribute('aria-pressed', 'true'); }
    b.disabled = !lit.has(c);
    b.addEventListener('click', () => cardClicked(c));
    return b;
  });
  $('hand').replaceChildren(...els);
  if (focused) { const f = els.find((e) => e.dataset.card === focused); if (f) f.focus(); }
  // The moves that are not cards, and the marked cards' move.
  const actions = [];
  if (mine) {
    // Moves that are not cards of the hand (a call, a Lead chosen from the table) are buttons.
    for (const m of s.moves.filter((m) => !m.cards.length || m.cards.some((c) => !hand.includes(c)))) {
      const b = document.createElement('button'); b.textContent = m.text; b.dataset.move = m.text;
      b.addEventListener('click', () => send({ move: m.text })); actions.push(b);
    }
    const multi = s.n_moves > s.moves.length || s.moves.some((m) => m.cards.length > 1);
    if (multi) {
      const b = document.createElement('button'); b.id = 'b-marked';
      b.textContent = st.marked.size ? `${verb(s)} the marked (${st.marked.size})` : `mark cards to ${verb(s)}`;
      b.disabled = !st.marked.size;
      b.addEventListener('click', () => send({ cards: [...st.marked] })); actions.push(b);
    }
  }
  $('actions').replaceChildren(...actions);
}

function verb(s) {
  const m = (s.moves || []).find((x) => x.cards.length > 1);
  if (m) return m.text.split(' ')[0];
  const phase = (s.table ? s.table.lines : []).find((l) => l.startsWith('phase: '));
  return phase && /exchange|set-aside/.test(phase) ? 'discard' : 'play';
}

function cardClicked(c) {
  const s = st.snap;
  if (!s || s.status !== 'your-move') return;
  const single = movesWith(new Set([c]));
  const inLonger = (s.moves || []).some((m) => m.cards.length > 1 && m.cards.includes(c)) || s.n_moves > s.moves.length;
  if (single.length === 1 && !inLonger && !st.marked.size) { send({ move: single[0].text }); return; }
  if (st.marked.has(c)) st.marked.delete(c); else st.marked.add(c);
  renderHand(s);
}

async function send(body) {
  showError('');
  try {
    await api(`/api/game/${st.id}/move`, body);
    st.marked.clear(); st.lastTrick = null; $('hints').replaceChildren();
  } catch (e) { showError(e); }
}

async function hint() {
  if (!st.snap || st.snap.status !== 'your-move') return;
  $('hints').textContent = 'thinking about your move...';
  try {
    const r = await api(`/api/game/${st.id}/hint`, {});
    const ol = document.createElement('ol');
    for (const h of r.hints) {
      const li = document.createElement('li');
      const b = document.createElement('button'); b.textContent = h.move;
      b.addEventListener('click', () => send({ move: h.move }));
      li.append(b, ` ${h.points === null ? h.value.toFixed(3) : (h.points >= 0 ? '+' : '') + h.points + ' points'}`);
      ol.append(li);
    }
    const title = document.createElement('div');
    title.textContent = 'Hints, best first (the points you would gain this hand, estimated):';
    $('hints').replaceChildren(title, ol);
  } catch (e) { $('hints').replaceChildren(); showError(e); }
}

async function takeBack() {
  showError('');
  try {
    await api(`/api/game/${st.id}/takeback`, {});
    st.events = []; st.seq = -1; st.trick = []; st.lastTrick = null; $('talk').replaceChildren(); $('hints').replaceChildren();
  } catch (e) { showError(e); }
}

async function restart() {
  showError('');
  try { await api(`/api/game/${st.id}/restart`, {}); } catch (e) { showError(e); }
}

// ------------------------------------------------------------------ review

const rv = { id: null, data: null, at: 0, timer: null };

function show(which) {
  for (const id of ['main', 'review', 'watch']) $(id).hidden = id !== which;
  if (which !== 'main') { st.id = null; history.replaceState(null, '', location.pathname); }
  if (which !== 'review' && rv.timer) { clearTimeout(rv.timer); rv.timer = null; }
  if (which !== 'watch' && wt.timer) { clearTimeout(wt.timer); wt.timer = null; }
}

async function review() {
  const f = $('f-review').files[0];
  if (!f) return;
  await startReview({ record: await f.text() });
  $('f-review').value = '';
}

async function reviewFile() {
  const name = $('f-records').value;
  if (!name) return;
  await startReview({ file: name });
  $('f-records').value = '';
}

async function startReview(body) {
  showError('');
  try {
    const r = await api('/api/review', body);
    rv.id = r.id; rv.at = 0; rv.data = null;
    show('review');
    delete document.body.dataset.review;
    reviewPoll();
  } catch (e) { showError(e); }
}

async function reviewPoll() {
  const id = rv.id;
  try {
    rv.data = await api(`/api/review/${id}`);
    if (id !== rv.id) return;
    renderReview();
    if (!rv.data.done) rv.timer = setTimeout(reviewPoll, 700);
    else document.body.dataset.review = 'done';
  } catch (e) { showError(e); }
}

function lossText(s) {
  if (s.loss === undefined) return s.note || (s.legal <= 1 ? 'the only move' : 'not valued yet');
  if (!s.points) return `value ${s.value} (best ${s.best_value}: ${s.best})`;
  return s.loss >= 0.05 ? `lost ${s.loss.toFixed(1)} points against ${s.best}` : 'the engine\'s best';
}

function renderReview() {
  const d = rv.data;
  const seatName = (i) => (d.names && d.names[i] ? `${d.names[i]} (seat ${i})` : `seat ${i}`);
  $('rv-summary').textContent = `${d.game}${d.preset ? ' (' + d.preset + ')' : ''}, ${d.steps.length} moves; ` +
    `${d.valued} of ${d.to_value} decisions valued by ${d.engine}${d.done ? '' : '...'}${d.note ? ' (' + d.note + ')' : ''}`;
  const worst = d.worst.map((k) => {
    const b = document.createElement('button'); const s = d.steps[k];
    b.className = 'mistake'; b.textContent = `move ${k + 1}: ${seatName(s.seat)} ${s.move} (-${s.loss.toFixed(1)})`;
    b.addEventListener('click', () => { rv.at = k; renderStep(); }); return b;
  });
  const title = document.createElement('span'); title.textContent = worst.length ? 'The worst decisions: ' : '';
  $('rv-worst').replaceChildren(title, ...worst);
  $('rv-slider').max = String(Math.max(d.steps.length - 1, 0));
  renderStep();
}

function renderStep() {
  const d = rv.data;
  if (!d || !d.steps.length) return;
  rv.at = Math.max(0, Math.min(rv.at, d.steps.length - 1));
  const s = d.steps[rv.at];
  $('rv-slider').value = String(rv.at);
  $('rv-pos').textContent = `move ${rv.at + 1} of ${d.steps.length}`;
  const parts = [];
  for (let i = 0; i < d.players; i++) {
    const row = document.createElement('div'); row.className = 'rv-hand';
    const w = document.createElement('span'); w.className = 'who';
    w.textContent = `${d.names && d.names[i] ? d.names[i] + ' (seat ' + i + ')' : 'seat ' + i}: ${s.scores[i]}${i === s.seat ? ' (to move)' : ''}`;
    row.append(w, ...s.hands[i].map((c) => cardElement(c, true)));
    parts.push(row);
  }
  const mv = document.createElement('div'); mv.className = 'rv-move' + (d.worst.includes(rv.at) ? ' mistake' : '');
  mv.textContent = `${d.names && d.names[s.seat] ? d.names[s.seat] : 'seat ' + s.seat}: ${s.move}. ${lossText(s)}`;
  const ev = document.createElement('ol'); ev.className = 'rv-events';
  for (const e of s.events) { if (e.startsWith('turn ')) continue; const li = document.createElement('li'); li.textContent = e; ev.append(li); }
  parts.push(mv, ev);
  $('rv-step').replaceChildren(...parts);
}

// ------------------------------------------------------------------ watch

const wt = { timer: null };

async function watchPoll() {
  try {
    const d = await api('/api/watch');
    const run = d.run || {};
    $('w-run').textContent = `${run.game || ''} ${run.preset || ''}, ${run.tournament || ''}: ${d.sets_done} sets done` +
      (run.rounds ? ` (${run.rounds} rounds)` : '');
    $('w-standings').innerHTML = '<tr><th>engine</th><th>sets</th><th>won</th><th>drawn</th><th>lost</th><th>faults</th><th>score %</th></tr>' +
      d.standings.map((x) => `<tr><td>${esc(x.name)}</td><td>${x.sets}</td><td>${x.wins}</td><td>${x.draws}</td><td>${x.losses}</td><td>${x.faults}</td><td>${x.score}</td></tr>`).join('');
    $('w-live').replaceChildren(...(d.live.length ? d.live.map((l) => {
      const div = document.createElement('div'); div.className = 'live';
      const h = document.createElement('div');
      h.textContent = `${l.names.map((n, i) => `${n || 'seat ' + i} ${l.scores[i]}`).join(' : ')}, move ${l.moves}`;
      const ol = document.createElement('ol');
      for (const e of l.events) { const li = document.createElement('li'); li.textContent = e; ol.append(li); }
      div.append(h, ol); return div;
    }) : [document.createTextNode('none just now')]));
    $('w-recent').innerHTML = '<tr><th>round</th><th>seats</th><th>scores</th><th>winner</th><th>end</th></tr>' +
      d.recent.map((x) => `<tr><td>${x.round}</td><td>${esc(x.seats.join(', '))}</td><td>${x.scores.join(' : ')}</td><td>${esc(x.winner_name || 'tie')}</td><td>${esc(x.reason)}</td></tr>`).join('');
    document.body.dataset.watch = String(d.sets_done);
  } catch (e) { showError(e); }
  if (!$('watch').hidden) wt.timer = setTimeout(watchPoll, 2000);
}

// ------------------------------------------------------------------ start

async function init() {
  try { st.info = await api('/api/info'); } catch (e) { showError(e); return; }
  fillSelect($('f-game'), st.info.games);
  fillSelect($('f-players'), ['2', '3', '4', '5', '6', '7', '8']);
  fillSelect($('f-engine'), st.info.engines);
  if (st.info.engines.length > 2) $('f-engine').value = st.info.engines[2];
  formChanged();
  $('f-game').addEventListener('change', formChanged);
  $('f-players').addEventListener('change', formChanged);
  $('new-form').addEventListener('submit', newSet);
  $('f-resume').addEventListener('change', resume);
  $('f-review').addEventListener('change', review);
  $('b-watch').hidden = !st.info.watch;
  if (st.info.records) {
    $('l-records').hidden = false;
    $('f-records').addEventListener('focus', async () => {
      try {
        const r = await api('/api/records');
        fillSelect($('f-records'), ['', ...r.records], ['a record...', ...r.records]);
      } catch (e) { showError(e); }
    });
    $('f-records').addEventListener('change', reviewFile);
  }
  $('b-watch').addEventListener('click', () => { show('watch'); watchPoll(); });
  $('rv-prev').addEventListener('click', () => { rv.at--; renderStep(); });
  $('rv-next').addEventListener('click', () => { rv.at++; renderStep(); });
  $('rv-slider').addEventListener('input', () => { rv.at = +$('rv-slider').value; renderStep(); });
  $('b-hint').addEventListener('click', hint);
  $('b-takeback').addEventListener('click', takeBack);
  $('b-restart').addEventListener('click', restart);
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (!$('review').hidden && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) { rv.at += e.key === 'ArrowLeft' ? -1 : 1; renderStep(); return; }
    // At the table the arrow keys move between your cards (Enter or Space plays or marks one).
    if (!$('main').hidden && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      const cards = [...document.querySelectorAll('#hand button.card:not(:disabled)')];
      if (!cards.length) return;
      const at = cards.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === 'ArrowLeft' ? cards.length - 1 : 1)) % cards.length;
      cards[next].focus();
      e.preventDefault();
      return;
    }
    if (e.key === 'h') hint(); else if (e.key === 'u') takeBack(); else if (e.key === 's' && st.id) $('b-save').click();
  });
  const m = /#g=([0-9a-f]{32})$/.exec(location.hash);
  if (m) start(m[1]);
}

document.addEventListener('DOMContentLoaded', init);
