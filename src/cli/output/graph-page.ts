/**
 * The style and the script of the HTML graph page (format-graph-html.ts), plain CSS and plain browser JavaScript
 * with no library: the script reads the laid-out graph from the page's JSON block, draws it as SVG (text only through
 * textContent), and lets the reader pan (drag), zoom (wheel, + and -, buttons), fit (0), search (/: matching nodes
 * are highlighted and the others dimmed; Enter centres the next match) and follow paths (click a node: what leads to
 * it and what it leads to stay lit; Escape or a click on the background clears).
 */

export const PAGE_STYLE = `
html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; background: #ffffff; color: #111827; }
body { display: flex; flex-direction: column; }
header { display: flex; gap: 8px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #d1d5db;
  background: #f9fafb; }
h1 { font-size: 14px; font-weight: 600; margin: 0 12px 0 0; flex: 1; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
#search { width: 260px; padding: 3px 6px; }
#count { font-size: 12px; color: #4b5563; min-width: 70px; }
button { min-width: 28px; }
#graph { flex: 1; width: 100%; cursor: grab; user-select: none; }
#graph.dragging { cursor: grabbing; }
.node rect { stroke-width: 1.2; }
.node text { font: 12px monospace; fill: #111827; }
.node text.kind { fill: #4b5563; }
.node text.note { font-style: italic; fill: #6b7280; }
.node { cursor: pointer; }
.edge path { fill: none; stroke: #9ca3af; stroke-width: 1.2; }
.edge.dashed path { stroke-dasharray: 5 4; }
.edge text { font: 10px sans-serif; fill: #6b7280; paint-order: stroke; stroke: #ffffff; stroke-width: 3px;
  stroke-linejoin: round; }
.column-title { font: 600 13px sans-serif; fill: #374151; }
.node.match rect { stroke: #ea580c; stroke-width: 3; }
.dim { opacity: 0.2; }
.edge.lit path { stroke: #2563eb; stroke-width: 2; }
`;

export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('graph-data').textContent);
  var svg = document.getElementById('graph');
  var view = document.getElementById('viewport');
  var search = document.getElementById('search');
  var count = document.getElementById('count');
  document.getElementById('title').textContent = data.title;

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, cls, value) {
    var t = el('text', { x: x, y: y, 'class': cls }, parent);
    t.textContent = value;
    return t;
  }

  var defs = el('defs', {}, view);
  var marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#9ca3af' }, marker);

  // The nodes first: their text is measured here, and each layer is as wide as its widest node, so the layout's
  // estimate (a monospace advance of 0.6 em) never clips a name in a font that runs wider.
  var byId = {};
  var nodeEls = {};
  var widths = [];
  var nodeLayer = el('g', {}, view);
  data.nodes.forEach(function (n) {
    byId[n.id] = n;
    var colour = data.colours[n.column];
    var g = el('g', { 'class': 'node ' + n.column }, nodeLayer);
    g.dataset.id = n.id;
    n.rect = el('rect', { width: n.w, height: n.h, rx: 6, fill: colour.fill, stroke: colour.stroke }, g);
    var widest = 0;
    n.lines.forEach(function (line, i) {
      var cls = i === 0 ? 'kind' : i === 2 ? 'note' : 'name';
      var t = text(g, 10, 7 + 12 + i * 15, cls, line);
      widest = Math.max(widest, t.getComputedTextLength());
    });
    widths[n.layer] = Math.max(widths[n.layer] || 0, Math.ceil(widest) + 20);
    el('title', {}, g).textContent = n.lines[0] + ' ' + n.full;
    nodeEls[n.id] = g;
  });
  // Each edge's label measured once: the gap after a layer is wide enough for the labels of the edges leaving it
  // for the next one, so no label runs under a node.
  var edgeLayer = el('g', {}, view);
  view.insertBefore(edgeLayer, nodeLayer);
  var gaps = [];
  data.edges.forEach(function (e) {
    var a = byId[e.from], b = byId[e.to];
    if (!e.label || !a || !b) return;
    e.g = el('g', { 'class': 'edge' + (e.dashed ? ' dashed' : '') }, edgeLayer);
    e.text = text(e.g, 0, 0, '', e.label);
    e.text.setAttribute('text-anchor', 'middle');
    e.labelWidth = e.text.getComputedTextLength();
    if (b.layer === a.layer + 1) gaps[a.layer] = Math.max(gaps[a.layer] || 0, Math.ceil(e.labelWidth) + 24);
  });
  var xs = [], x = 20;
  for (var layer = 0; layer < widths.length; layer++) {
    xs[layer] = x;
    if (widths[layer] !== undefined) x += widths[layer] + Math.max(90, gaps[layer] || 0);
  }
  var width = x - 70;
  data.nodes.forEach(function (n) {
    n.x = xs[n.layer];
    n.w = widths[n.layer];
    n.rect.setAttribute('width', String(n.w));
    nodeEls[n.id].setAttribute('transform', 'translate(' + n.x + ',' + n.y + ')');
  });
  data.columns.forEach(function (c) { text(view, xs[c.layer], 24, 'column-title', c.title); });

  // Edges between the same two nodes fan out (the k-th of n curves bows by its own offset), and each label sits on
  // its curve, moved down past any label already placed that it would cover.
  var pairs = {};
  data.edges.forEach(function (e) {
    var key = e.from + '>' + e.to;
    e.pairIndex = pairs[key] || 0;
    pairs[key] = e.pairIndex + 1;
  });
  var LABEL_HEIGHT = 12;
  var placed = [];
  var edgeEls = [];
  data.edges.forEach(function (e) {
    var a = byId[e.from], b = byId[e.to];
    if (!a || !b) return;
    var x1 = a.x + a.w, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y + b.h / 2;
    var bend = Math.max(40, Math.abs(x2 - x1) / 2);
    var offset = (e.pairIndex - (pairs[e.from + '>' + e.to] - 1) / 2) * (LABEL_HEIGHT + 2);
    // A cubic's midpoint lies 3/4 of the way to its control points' offset.
    var bow = offset / 0.75;
    var g = e.g || el('g', { 'class': 'edge' + (e.dashed ? ' dashed' : '') }, edgeLayer);
    el('path', { d: 'M ' + x1 + ' ' + y1 + ' C ' + (x1 + bend) + ' ' + (y1 + bow) + ', ' + (x2 - bend) + ' ' +
      (y2 + bow) + ', ' + x2 + ' ' + y2, 'marker-end': 'url(#arrow)' }, g);
    if (e.text) {
      var mx = (x1 + x2) / 2, my = (y1 + y2) / 2 + offset - 4;
      var half = e.labelWidth / 2;
      var moved = true;
      while (moved) {
        moved = false;
        for (var i = 0; i < placed.length; i++) {
          var p = placed[i];
          if (mx - half < p.right && p.left < mx + half && my - LABEL_HEIGHT < p.bottom && p.top < my) {
            my = p.bottom + LABEL_HEIGHT;
            moved = true;
          }
        }
      }
      placed.push({ left: mx - half, right: mx + half, top: my - LABEL_HEIGHT, bottom: my });
      e.text.setAttribute('x', String(mx));
      e.text.setAttribute('y', String(my));
      g.appendChild(e.text);
    }
    edgeEls.push({ el: g, from: e.from, to: e.to });
  });

  // Pan and zoom: one transform on the viewport group.
  var state = { x: 0, y: 0, k: 1 };
  function apply() {
    view.setAttribute('transform', 'translate(' + state.x + ',' + state.y + ') scale(' + state.k + ')');
  }
  function zoomAt(factor, cx, cy) {
    var k = Math.min(8, Math.max(0.05, state.k * factor));
    state.x = cx - (cx - state.x) * (k / state.k);
    state.y = cy - (cy - state.y) * (k / state.k);
    state.k = k;
    apply();
  }
  // The whole graph in the window (0); the first view fits the width only, so a tall graph stays legible.
  function fit(widthOnly) {
    var box = svg.getBoundingClientRect();
    var k = Math.min(box.width / width, widthOnly === true ? 1.5 : box.height / data.height, 1.5);
    state.k = k;
    state.x = Math.max(0, (box.width - width * k) / 2);
    state.y = 0;
    apply();
  }
  function centreOn(id) {
    var n = byId[id], box = svg.getBoundingClientRect();
    if (state.k < 0.8) state.k = 1;
    state.x = box.width / 2 - (n.x + n.w / 2) * state.k;
    state.y = box.height / 2 - (n.y + n.h / 2) * state.k;
    apply();
  }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var box = svg.getBoundingClientRect();
    zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - box.left, ev.clientY - box.top);
  }, { passive: false });
  var drag = null;
  svg.addEventListener('pointerdown', function (ev) {
    // The node pressed is taken now: with the pointer captured, later events come to the svg itself.
    var node = ev.target && ev.target.closest ? ev.target.closest('.node') : null;
    drag = { x: ev.clientX, y: ev.clientY, sx: state.x, sy: state.y, moved: false, node: node };
    svg.setPointerCapture(ev.pointerId);
    svg.classList.add('dragging');
  });
  svg.addEventListener('pointermove', function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    state.x = drag.sx + dx;
    state.y = drag.sy + dy;
    apply();
  });
  svg.addEventListener('pointerup', function () {
    var was = drag;
    drag = null;
    svg.classList.remove('dragging');
    if (!was || was.moved) return;
    if (was.node) focusOn(was.node.dataset.id); else clearFocus();
  });
  function zoomCentre(factor) {
    var box = svg.getBoundingClientRect();
    zoomAt(factor, box.width / 2, box.height / 2);
  }
  document.getElementById('zoom-in').addEventListener('click', function () { zoomCentre(1.25); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoomCentre(0.8); });
  document.getElementById('fit').addEventListener('click', function () { fit(false); });

  // Search: matching nodes highlighted, the others dimmed; Enter centres the next match.
  var matches = [], current = -1;
  function runSearch() {
    var q = search.value.trim().toLowerCase();
    matches = [];
    current = -1;
    data.nodes.forEach(function (n) {
      var hit = q !== '' && (n.lines.join(' ') + ' ' + n.full).toLowerCase().indexOf(q) >= 0;
      nodeEls[n.id].classList.toggle('match', hit);
      nodeEls[n.id].classList.toggle('dim', q !== '' && !hit);
      if (hit) matches.push(n.id);
    });
    edgeEls.forEach(function (e) { e.el.classList.toggle('dim', q !== ''); });
    count.textContent = q === '' ? '' : matches.length + (matches.length === 1 ? ' match' : ' matches');
  }
  search.addEventListener('input', runSearch);
  search.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter' && matches.length > 0) {
      current = (current + 1) % matches.length;
      centreOn(matches[current]);
    }
    if (ev.key === 'Escape') { search.value = ''; runSearch(); search.blur(); }
  });

  // A clicked node: the paths through it stay lit.
  function reach(start, forward) {
    var seen = {}, stack = [start];
    seen[start] = true;
    while (stack.length > 0) {
      var id = stack.pop();
      edgeEls.forEach(function (e) {
        var next = forward ? (e.from === id ? e.to : null) : (e.to === id ? e.from : null);
        if (next !== null && !seen[next]) { seen[next] = true; stack.push(next); }
      });
    }
    return seen;
  }
  function focusOn(id) {
    var down = reach(id, true), up = reach(id, false);
    Object.keys(nodeEls).forEach(function (k) { nodeEls[k].classList.toggle('dim', !down[k] && !up[k]); });
    edgeEls.forEach(function (e) {
      var on = (down[e.from] && down[e.to]) || (up[e.from] && up[e.to]);
      e.el.classList.toggle('lit', !!on);
      e.el.classList.toggle('dim', !on);
    });
  }
  function clearFocus() {
    Object.keys(nodeEls).forEach(function (k) { nodeEls[k].classList.remove('dim'); });
    edgeEls.forEach(function (e) { e.el.classList.remove('lit', 'dim'); });
    if (search.value.trim() !== '') runSearch();
  }
  document.addEventListener('keydown', function (ev) {
    if (ev.target === search) return;
    if (ev.key === '/') { ev.preventDefault(); search.focus(); }
    else if (ev.key === '+' || ev.key === '=') zoomCentre(1.25);
    else if (ev.key === '-') zoomCentre(0.8);
    else if (ev.key === '0') fit(false);
    else if (ev.key === 'Escape') clearFocus();
  });

  fit(true);
})();
`;
