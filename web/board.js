// board.js - the analysis board of `ocsolve serve`. Everything it shows
// about values comes from the server's JSON (GET /api/analyse, POST
// /api/play): the page computes no value itself, it only keeps the game
// (start position and moves, for undo/redo and the URL) and draws.
// A request is polled until its job is done; a newer position simply
// stops the polling of the older one, so the page never waits.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const BOARD_PX = 600, MARGIN = 24;

const st = {
  rules: 'original', n: 6, k: 5, start: '-', moves: [], redo: [],
  sym: 'X', mode: 'analyse', gen: 0, analysis: null, engineBusy: false,
};

const $ = (id) => document.getElementById(id);

// --- the position, client side: only cells, never values ---

function cellName(i, n) { return String.fromCharCode(97 + (i % n)) + (Math.floor(i / n) + 1); }
function cellIndex(name, n) {
  const c = name.charCodeAt(0) - 97, r = parseInt(name.slice(1), 10) - 1;
  return (c >= 0 && c < n && r >= 0 && r < n) ? r * n + c : -1;
}

// The cells of start with the moves played: an array of 'X', 'O', '.'.
function cells() {
  const n = st.n;
  let s = st.start === '-' || st.start === 'empty' ? '' : st.start.replace(/\//g, '');
  const a = s.length === n * n ? s.split('') : new Array(n * n).fill('.');
  for (const m of st.moves) { const i = cellIndex(m.slice(1), n); if (i >= 0) a[i] = m[0]; }
  return a;
}

function sizeOf(pos) {
  const len = pos.replace(/\//g, '').length;
  for (let n = 4; n <= 8; n++) if (n * n === len) return n;
  return 0;
}

// --- the URL carries the game ---

function query() {
  const p = new URLSearchParams();
  p.set('rules', st.rules); p.set('board', String(st.n)); p.set('k', String(st.k));
  p.set('position', st.start);
  if (st.moves.length) p.set('moves', st.moves.join(','));
  return p;
}

function saveUrl() {
  const p = query();
  if (st.mode !== 'analyse') p.set('mode', st.mode);
  const url = '/?' + p.toString();
  history.replaceState(null, '', url);
  $('share').href = url;
}

function loadUrl() {
  const p = new URLSearchParams(location.search);
  if (p.get('rules')) st.rules = p.get('rules');
  if (p.get('position')) st.start = p.get('position');
  const n = sizeOf(st.start);
  st.n = n || parseInt(p.get('board') || '6', 10) || 6;
  st.k = parseInt(p.get('k') || String(Math.min(5, st.n)), 10) || Math.min(5, st.n);
  st.moves = (p.get('moves') || '').split(/[ ,]+/).filter((m) => m);
  if (p.get('mode')) st.mode = p.get('mode');
}

// --- drawing ---

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function geometry() {
  const size = (BOARD_PX - MARGIN) / st.n;
  const centre = (i) => [MARGIN + (i % st.n) * size + size / 2, MARGIN + Math.floor(i / st.n) * size + size / 2];
  return { size, centre };
}

// Text of one move's value: symbol, W/L/?, distance to Order's line.
// Undecided: '?' once the analysis is done (the think time ran out),
// else pending.
function valueText(mv, done) {
  if (!mv) return { text: done ? '?' : '\u2026', cls: done ? 'unknown' : 'pending' };
  const settled = mv.final || done;
  const mark = mv.value === 'win' ? 'W' : mv.value === 'loss' ? 'L' : settled ? '?' : '\u2026';
  const cls = mv.value !== 'unknown' ? mv.value : settled ? 'unknown' : 'pending';
  const d = mv.dtw !== null && mv.dtw !== undefined ? String(mv.dtw + 1) : '';
  return { text: mark + d, cls };
}

function drawLemmas(svg, g, an) {
  if (!an) return;
  const line = (a, b, cls) => {
    const [x1, y1] = g.centre(cellIndex(a, st.n)), [x2, y2] = g.centre(cellIndex(b, st.n));
    el('line', { x1, y1, x2, y2, class: cls }, svg);
  };
  const tag = (c, text, cls, dy) => {
    const [x, y] = g.centre(cellIndex(c, st.n));
    el('text', { x: x - g.size / 2 + 4, y: y - g.size / 2 + 12 + (dy || 0), class: 'tag ' + cls }, svg, text);
  };
  const centreUsed = an.centre && (an.centre.holds || (an.moves || []).some((m) => m.strategy && m.strategy.startsWith('centre')));
  if (centreUsed && $('show-centre').checked) {
    an.centre.pairs.forEach((p, i) => { line(p.a, p.b, 'ring'); tag(p.a, String(i + 1), 'ring'); tag(p.b, String(i + 1), 'ring'); });
  }
  if (an.pairing && $('show-pairing').checked) {
    an.pairing.pairs.forEach((p, i) => {
      const cls = p.kind === 'same' ? 'same' : 'opp', mark = (i + 1) + (p.kind === 'same' ? '=' : '~');
      line(p.a, p.b, cls); tag(p.a, mark, cls, 11); tag(p.b, mark, cls, 11);
    });
  }
}

function draw() {
  const svg = $('board'), n = st.n, a = cells(), g = geometry(), an = st.analysis;
  svg.setAttribute('viewBox', `0 0 ${BOARD_PX} ${BOARD_PX}`);
  svg.textContent = '';
  const byMove = {};
  if (an) for (const m of an.moves || []) byMove[m.move] = m;
  const centreShown = an && an.centre && $('show-centre').checked &&
    (an.centre.holds || (an.moves || []).some((m) => m.strategy && m.strategy.startsWith('centre')));
  const last = st.moves.length ? st.moves[st.moves.length - 1].slice(1) : null;
  for (let c = 0; c < n; c++) el('text', { x: MARGIN + c * g.size + g.size / 2, y: MARGIN / 2, class: 'coord' }, svg, String.fromCharCode(97 + c));
  for (let r = 0; r < n; r++) el('text', { x: MARGIN / 2, y: MARGIN + r * g.size + g.size / 2, class: 'coord' }, svg, String(r + 1));
  for (let i = 0; i < n * n; i++) {
    const name = cellName(i, n), [x, y] = g.centre(i);
    const inner = Math.floor(i / n) > 0 && Math.floor(i / n) < n - 1 && i % n > 0 && i % n < n - 1;
    const rect = el('rect', { id: 'cell-' + name, 'data-cell': name, x: x - g.size / 2, y: y - g.size / 2,
      width: g.size, height: g.size, class: 'cell' + (centreShown && inner ? ' centre' : '') + (name === last ? ' last' : '') }, svg);
    rect.addEventListener('click', () => onCell(name));
    if (a[i] !== '.') {
      el('text', { x, y, class: 'piece ' + a[i] }, svg, a[i]);
      continue;
    }
    if (!an || an.position === undefined) continue;
    ['X', 'O'].forEach((s, j) => {
      const mv = byMove[s + name], v = valueText(mv, an.state === 'done');
      const t = el('text', { x, y: y + (j ? 1 : -1) * g.size / 5, class: 'val ' + v.cls, 'data-move': s + name }, svg, s + ' ' + v.text);
      if (mv && mv.strategy) {
        el('circle', { cx: x, cy: y + (j ? 1 : -1) * g.size / 5, r: g.size / 5.5, class: 'keep' }, svg);
        const title = el('title', {}, t);
        title.textContent = strategyText(mv);
      }
    });
  }
  drawLemmas(svg, g, an);
}

function strategyText(m) {
  switch (m.strategy) {
    case 'centre-pair': return `${m.move}: the centre strategy's answer to ${m.answers} in its ring pair`;
    case 'centre-small': return `${m.move}: a winning move of the ${st.n - 2}x${st.n - 2} centre game (centre strategy)`;
    case 'pairing-pair': return `${m.move}: the pairing's answer to ${m.answers} in its ${m.pair_kind} pair`;
    case 'pairing-free': return `${m.move}: a free-cell answer that keeps the pairing`;
    default: return '';
  }
}

const BY = { rules: 'the rules', centre: 'the centre lemma', pairing: 'a Chaos pairing', store: 'the store', search: 'search' };

function describe(an) {
  if (!an || !an.value) return '';
  if (an.status !== 'ongoing') return an.status === 'order-won' ? 'Order has won.' : 'Chaos has won: the board is full.';
  const v = an.value, side = an.to_move === 'order' ? 'Order' : 'Chaos';
  if (v.winner === 'unknown') return `${side} to move; not decided within the think time.`;
  const who = v.winner === 'order' ? 'Order' : 'Chaos';
  const dist = v.dtw !== null ? `, Order's line in ${v.dtw} plies` : '';
  const how = v.from_moves ? `from its moves' values: ${BY[v.by] || v.by}` : (BY[v.by] || v.by);
  return `${side} to move; ${who} wins${dist} (${how}).`;
}

function whyText(an) {
  const lines = [];
  if (an.centre && an.centre.holds) lines.push(`The centre lemma decides this position: every ring pair is empty or settled, and the ${st.n - 2}x${st.n - 2} centre game is an Order win (dashed red: the ring pairs; shaded: the centre).`);
  if (an.pairing) lines.push(`A pairing decides this position for Chaos: ${an.pairing.pairs.length} pairs cover every live window (blue: opposite pairs, answered with the other symbol; dashed red: same pairs, answered with the same symbol).`);
  for (const m of an.moves || []) if (m.strategy === 'centre-pair' || m.strategy === 'pairing-pair') lines.push(strategyText(m) + '.');
  return lines;
}

function render() {
  draw();
  const an = st.analysis;
  $('value').textContent = describe(an);
  const why = $('why');
  why.textContent = '';
  if (an) for (const l of whyText(an)) { const p = document.createElement('p'); p.textContent = l; why.appendChild(p); }
  const h = $('history');
  h.textContent = '';
  for (const m of st.moves) { const li = document.createElement('li'); li.textContent = m; h.appendChild(li); }
  $('undo').disabled = !st.moves.length;
  $('redo').disabled = !st.redo.length;
}

function setStatus(text, state, error) {
  const s = $('status');
  s.textContent = text;
  s.dataset.state = state;
  s.classList.toggle('error', !!error);
}

// --- talking to the server ---

async function ask(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: 'unreadable answer (HTTP ' + r.status + ')' }; }
  return { status: r.status, body };
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

// Polls an API call until its job is done, while gen is still current.
async function until(gen, call, show) {
  for (;;) {
    let r;
    try { r = await call(); } catch (e) { if (gen === st.gen) setStatus('the server does not answer', 'error', true); return null; }
    if (gen !== st.gen) return null;
    if (r.status === 400 || r.status === 500) { setStatus(r.body.error || 'error', 'error', true); return null; }
    if (r.status === 503) { setStatus('the server is busy; asking again', 'busy'); await sleep(1000); continue; }
    show(r.body, r.status === 200);
    if (r.status === 200) return r.body;
    await sleep(300);
  }
}

function progressText(b) {
  const p = b.progress;
  if (b.state === 'queued') return `queued (${p.ahead} before it)`;
  const moves = b.kind === 'analyse' ? `${p.searched}/${p.moves} moves searched, ` : '';
  return `${b.state === 'running' ? 'analysing' : 'done'}: ${moves}${p.seconds.toFixed(1)} s of ${p.think} s`;
}

async function analyse() {
  const gen = ++st.gen;
  st.analysis = null;
  render();
  setStatus('asking the engine', 'running');
  const body = await until(gen, () => ask('/api/analyse?' + query().toString()), (b, done) => {
    st.analysis = b;
    setStatus(progressText(b), done ? 'done' : 'running');
    render();
  });
  if (body) maybeEngineMove(gen, body);
}

// Play against the proof: the engine moves when it is its side's turn.
async function maybeEngineMove(gen, an) {
  if (st.mode === 'analyse' || an.status !== 'ongoing' || an.to_move === st.mode) return;
  const form = query();
  const play = await until(gen, () => ask('/api/play', { method: 'POST', body: form,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), (b, done) => {
    setStatus(done ? 'the engine has moved' : 'the engine is thinking: ' + progressText(b), done ? 'done' : 'running');
  });
  if (!play || !play.move) return;
  $('engine').textContent = `ocsolve plays ${play.move}: ${play.reason}`;
  st.moves.push(play.move);
  st.redo = [];
  changed();
}

function changed() {
  saveUrl();
  analyse();
}

// --- the page's controls ---

function onCell(name) {
  const a = cells(), i = cellIndex(name, st.n);
  if (i < 0 || a[i] !== '.') return;
  const an = st.analysis;
  if (an && an.status && an.status !== 'ongoing') return;
  if (st.mode !== 'analyse' && an && an.to_move && an.to_move !== st.mode) return; // the engine's turn
  st.moves.push(st.sym + name);
  st.redo = [];
  $('engine').textContent = '';
  changed();
}

function setSym(s) {
  st.sym = s;
  $('sym-X').classList.toggle('on', s === 'X');
  $('sym-O').classList.toggle('on', s === 'O');
}

function fillK() {
  const k = $('k');
  k.textContent = '';
  for (let v = 3; v <= st.n; v++) { const o = document.createElement('option'); o.textContent = String(v); k.appendChild(o); }
  if (st.k > st.n) st.k = Math.min(5, st.n);
  k.value = String(st.k);
}

function newGame() {
  st.start = '-'; st.moves = []; st.redo = [];
  $('engine').textContent = '';
  changed();
}

// Who made the last move: Order when the pieces before it were even.
function lastMover() { return (cells().filter((c) => c !== '.').length - 1) % 2 === 0 ? 'order' : 'chaos'; }

// Takes back one move; playing against the proof, back to your own turn.
function undo() {
  if (!st.moves.length) return;
  if (st.mode !== 'analyse' && lastMover() !== st.mode && st.moves.length > 1) st.redo.push(st.moves.pop());
  st.redo.push(st.moves.pop());
  changed();
}
function redo() { if (st.redo.length) { st.moves.push(st.redo.pop()); changed(); } }

function load() {
  const words = $('paste').value.trim().split(/\s+/).filter((w) => w);
  if (!words.length) return;
  const n = sizeOf(words[0]);
  if (n) { st.n = n; $('n').value = String(n); fillK(); }
  st.start = words[0]; st.moves = words.slice(1); st.redo = [];
  changed();
}

function init() {
  loadUrl();
  $('rules').value = st.rules;
  $('n').value = String(st.n);
  fillK();
  $('mode').value = st.mode;
  $('sym-X').addEventListener('click', () => setSym('X'));
  $('sym-O').addEventListener('click', () => setSym('O'));
  $('rules').addEventListener('change', (e) => { st.rules = e.target.value; newGame(); });
  $('n').addEventListener('change', (e) => { st.n = parseInt(e.target.value, 10); st.k = Math.min(5, st.n); fillK(); newGame(); });
  $('k').addEventListener('change', (e) => { st.k = parseInt(e.target.value, 10); newGame(); });
  $('mode').addEventListener('change', (e) => { st.mode = e.target.value; changed(); });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('reset').addEventListener('click', () => { st.moves = []; st.redo = []; changed(); });
  $('load').addEventListener('click', load);
  $('show-centre').addEventListener('change', render);
  $('show-pairing').addEventListener('change', render);
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === 'x' || e.key === 'X') setSym('X');
    else if (e.key === 'o' || e.key === 'O') setSym('O');
    else if (e.key === ' ') { setSym(st.sym === 'X' ? 'O' : 'X'); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') undo();
    else if (e.key === 'ArrowRight') redo();
  });
  changed();
}

init();
