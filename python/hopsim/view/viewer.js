// hopsim run explorer: draws one run from the data embedded in the page (no server, no
// library). The network with a time scrubber, each node's air and queue on a zoomable
// timeline (routing control frames by message), each flow's route lane under it, each flow's
// window and goodput, drops with their reasons; a click on a frame or
// a drop shows its packet's journey hop by hop. `#packet=ID` or `#t=SECONDS` in the URL open
// a journey or a time at load.
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const KINDS = ["data", "rts", "cts", "ack", "bar", "ba", "action"];
const KIND_COLOUR = {
  data: "#1f77b4", rts: "#ff7f0e", cts: "#2ca02c", ack: "#9467bd", bar: "#8c564b", ba: "#e377c2",
  action: "#7f7f7f",
};
// Routing control frames (DATA frames carrying AODV, DSR, OLSR, HWMP or ETX packets) by role.
const ROLE_COLOUR = { request: "#17becf", reply: "#bcbd22", error: "#8b0000", beacon: "#c49c94", other: "#555" };
const CONTROL = new Map(D.control_frames[0].map((f, i) => [f, D.control_frames[1][i]]));
function controlName(i) { return D.control_kinds[CONTROL.get(i)][0]; }
function frameColour(i) {
  return CONTROL.has(i) ? ROLE_COLOUR[D.control_roles[D.control_kinds[CONTROL.get(i)][1]]] : KIND_COLOUR[KINDS[D.frames[3][i]]];
}
const FLOW_COLOUR = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const ROW_PX = 16, LABEL_PX = 44;
const SVG_NS = "http://www.w3.org/2000/svg";
const spanUs = Math.max(1, Math.round((D.window[1] - D.window[0]) * 1e6));
const view = { t0: 0, t1: spanUs, cursor: 0 };
const drawn = { frames: 0, drops: 0, losses: 0, routes: 0, noRoute: 0, changes: 0 };

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function fmtS(us) { return (D.window[0] + us / 1e6).toFixed(6).replace(/0+$/, "").replace(/\.$/, ""); }
function flowColour(i) { return FLOW_COLOUR[i % FLOW_COLOUR.length]; }

// Position of a node at time t (s): its moves are [start_s, end_s, x, y] in order.
function position(node, tS) {
  let [x, y] = D.nodes[node];
  for (const [a, b, tx, ty] of D.moves[node] || []) {
    if (tS <= a) break;
    const f = b > a ? Math.min(1, (tS - a) / (b - a)) : 1;
    x += (tx - x) * f; y += (ty - y) * f;
    if (tS < b) break;
  }
  return [x, y];
}

// ---------------------------------------------------------------- the network
const net = document.getElementById("net");
let netScale = null;
function netTransform() {
  const xs = [], ys = [];
  D.nodes.forEach((p, i) => { xs.push(p[0]); ys.push(p[1]);
    (D.moves[i] || []).forEach(m => { xs.push(m[2]); ys.push(m[3]); }); });
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const w = 900, pad = 24, span = Math.max(maxX - minX, maxY - minY, 1);
  const k = (w - 2 * pad) / span, h = Math.max(120, (maxY - minY) * k + 2 * pad);
  net.setAttribute("viewBox", `0 0 ${w} ${h}`);
  netScale = p => [pad + (p[0] - minX) * k, h - pad - (p[1] - minY) * k];
}
function drawNet() {
  const tS = D.window[0] + view.cursor / 1e6;
  const pos = D.nodes.map((_, i) => netScale(position(i, tS)));
  net.replaceChildren();
  for (const [a, b] of D.sense_links) el("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "sense" }, net);
  for (const [a, b] of D.decode_links) el("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "decode" }, net);
  D.flows.forEach((f, i) => {
    const route = routeAt(i, view.cursor) || (f.routes.length ? f.routes[0][0] : []);
    if (route.length > 1) el("polyline", { points: route.map(n => pos[n].join(",")).join(" "), class: "route", stroke: flowColour(i) }, net);
  });
  if (journeyNodes.length > 1) el("polyline", { points: journeyNodes.map(n => pos[n].join(",")).join(" "), class: "journey" }, net);
  const onAir = framesAt(view.cursor);
  pos.forEach((p, i) => {
    const g = el("g", { class: "node" + (onAir.has(i) ? " sending" : ""), "data-node": i }, net);
    el("circle", { cx: p[0], cy: p[1], r: 9 }, g);
    const t = el("text", { x: p[0], y: p[1] + 3.5 }, g);
    t.textContent = i;
  });
  document.getElementById("tlabel").textContent = `t = ${fmtS(view.cursor)} s`;
}
// The route flow `fi`'s data took last before `us` (from the trace), if any.
function routeAt(fi, us) {
  const rc = D.route_changes;
  let route = null;
  for (let i = 0; i < rc[0].length; i++) {
    if (rc[1][i] > us) break;
    if (rc[0][i] === fi) route = rc[2][i];
  }
  return route;
}
function framesAt(us) {
  const f = D.frames, s = new Set();
  for (let i = 0; i < f[0].length; i++) {
    if (f[1][i] > us) break;
    if (f[2][i] >= us) s.add(f[0][i]);
  }
  return s;
}

// ---------------------------------------------------------------- the air timeline
const air = document.getElementById("air");
function xOf(us, w) { return LABEL_PX + (us - view.t0) / (view.t1 - view.t0) * (w - LABEL_PX); }
function usOf(x, w) { return view.t0 + (x - LABEL_PX) / (w - LABEL_PX) * (view.t1 - view.t0); }
function drawAir() {
  const n = D.nodes.length, w = air.clientWidth || 1000, rows = n + D.flows.length;
  air.width = w; air.height = rows * ROW_PX + 20;
  const c = air.getContext("2d");
  c.clearRect(0, 0, w, air.height);
  c.font = "10px sans-serif"; c.fillStyle = "#444";
  for (let i = 0; i < n; i++) c.fillText(`node ${i}`, 2, i * ROW_PX + 11);
  // NAV: a light band.
  c.fillStyle = "rgba(0,0,0,0.08)";
  const nv = D.nav;
  for (let i = 0; i < nv[0].length; i++) {
    if (nv[2][i] < view.t0 || nv[1][i] > view.t1) continue;
    const x0 = Math.max(LABEL_PX, xOf(nv[1][i], w)), x1 = xOf(nv[2][i], w);
    c.fillRect(x0, nv[0][i] * ROW_PX + 2, Math.max(1, x1 - x0), ROW_PX - 4);
  }
  // Frames by kind.
  const f = D.frames; drawn.frames = 0;
  for (let i = 0; i < f[0].length; i++) {
    if (f[2][i] < view.t0 || f[1][i] > view.t1) continue;
    const x0 = Math.max(LABEL_PX, xOf(f[1][i], w)), x1 = xOf(f[2][i], w);
    c.fillStyle = frameColour(i);
    c.fillRect(x0, f[0][i] * ROW_PX + 3, Math.max(1, x1 - x0), ROW_PX - 6);
    drawn.frames++;
  }
  // Queue length: a thin line in the lower part of the row.
  c.strokeStyle = "#e6a800"; c.lineWidth = 1;
  const q = D.queue, last = new Map();
  for (let i = 0; i < q[0].length; i++) {
    const node = q[0][i], y = (node + 1) * ROW_PX - 2 - Math.min(q[2][i], 50) / 50 * (ROW_PX - 4);
    if (q[1][i] >= view.t0 && q[1][i] <= view.t1 && last.has(node)) {
      const [px, py] = last.get(node);
      c.beginPath(); c.moveTo(px, py); c.lineTo(xOf(q[1][i], w), py); c.lineTo(xOf(q[1][i], w), y); c.stroke();
    }
    last.set(node, [Math.max(LABEL_PX, xOf(q[1][i], w)), y]);
  }
  // Backoffs drawn: short grey ticks under the row.
  c.fillStyle = "#777";
  const bo = D.backoff;
  for (let i = 0; i < bo[0].length; i++) {
    if (bo[1][i] < view.t0 || bo[1][i] > view.t1) continue;
    c.fillRect(xOf(bo[1][i], w), (bo[0][i] + 1) * ROW_PX - 3, 1, 3);
  }
  // Lost receptions (red ticks) and drops (black triangles).
  c.fillStyle = "#d00"; drawn.losses = 0;
  const l = D.losses;
  for (let i = 0; i < l[0].length; i++) {
    if (l[1][i] < view.t0 || l[1][i] > view.t1) continue;
    c.fillRect(xOf(l[1][i], w) - 1, l[0][i] * ROW_PX, 2, ROW_PX); drawn.losses++;
  }
  c.fillStyle = "#000"; drawn.drops = 0;
  const d = D.drops;
  for (let i = 0; i < d[0].length; i++) {
    if (d[1][i] < view.t0 || d[1][i] > view.t1) continue;
    const x = xOf(d[1][i], w), y = d[0][i] * ROW_PX + 1;
    c.beginPath(); c.moveTo(x - 4, y); c.lineTo(x + 4, y); c.lineTo(x, y + 7); c.fill(); drawn.drops++;
  }
  drawRouteLanes(c, w, n);
  // Cursor and time axis.
  c.strokeStyle = "#888"; c.beginPath(); c.moveTo(xOf(view.cursor, w), 0); c.lineTo(xOf(view.cursor, w), rows * ROW_PX); c.stroke();
  c.fillStyle = "#444";
  for (let k = 0; k <= 5; k++) {
    const us = view.t0 + k / 5 * (view.t1 - view.t0), x = xOf(us, w);
    c.fillText(`${fmtS(us)} s`, Math.min(x, w - 60), rows * ROW_PX + 14);
  }
}

// Route lanes, one row per flow under the nodes: each span of the flow's route in use (its
// data delivered along one path, no long gap) in the flow's colour with its hop count, a black
// tick where the route changes, and grey hatching while it has no route (data held for a
// route or dropped for want of one, until the next delivery).
function drawRouteLanes(c, w, n) {
  const sp = D.route_spans, rc = D.route_changes, minPx = 2;
  drawn.routes = 0; drawn.noRoute = 0; drawn.changes = 0;
  c.strokeStyle = "#ccc"; c.beginPath(); c.moveTo(0, n * ROW_PX + 0.5); c.lineTo(w, n * ROW_PX + 0.5); c.stroke();
  D.flows.forEach((f, fi) => { c.fillStyle = flowColour(fi); c.fillText(`route ${fi}`, 2, (n + fi) * ROW_PX + 11); });
  const hatch = document.createElement("canvas"); hatch.width = hatch.height = 6;
  const hc = hatch.getContext("2d"); hc.strokeStyle = "#999"; hc.beginPath(); hc.moveTo(0, 6); hc.lineTo(6, 0); hc.stroke();
  const grey = c.createPattern(hatch, "repeat");
  for (let i = 0; i < sp[0].length; i++) {
    if (sp[2][i] < view.t0 || sp[1][i] > view.t1) continue;
    const y = (n + sp[0][i]) * ROW_PX, x0 = Math.max(LABEL_PX, xOf(sp[1][i], w)), x1 = Math.max(x0 + minPx, xOf(sp[2][i], w));
    if (sp[3][i].length) {
      c.fillStyle = flowColour(sp[0][i]); c.globalAlpha = 0.55;
      c.fillRect(x0, y + 3, x1 - x0, ROW_PX - 6); c.globalAlpha = 1; drawn.routes++;
      if (x1 - x0 > 40) { c.fillStyle = "#000"; c.fillText(hops(sp[3][i]), x0 + 3, y + 11); }
    } else {
      c.fillStyle = grey; c.fillRect(x0, y + 2, x1 - x0, ROW_PX - 4); drawn.noRoute++;
    }
  }
  c.fillStyle = "#000";
  for (let i = 0; i < rc[0].length; i++) {
    if (rc[1][i] < view.t0 || rc[1][i] > view.t1) continue;
    c.fillRect(xOf(rc[1][i], w) - 1, (n + rc[0][i]) * ROW_PX + 1, 2, ROW_PX - 2); drawn.changes++;
  }
}
function hops(nodes) { return nodes.length === 2 ? "1 hop" : `${nodes.length - 1} hops`; }
// The route span of flow `fi` under time `us` (within `tol`), as text; null if none.
function routeText(fi, us, tol) {
  const sp = D.route_spans, f = D.flows[fi];
  let best = null;
  for (let i = 0; i < sp[0].length; i++) {
    if (sp[0][i] !== fi || sp[1][i] - tol > us || us > sp[2][i] + tol) continue;
    if (best === null || sp[3][i].length) best = i;  // a route over a no-route sliver
  }
  if (best === null) return null;
  const when = `${fmtS(sp[1][best])}\u2013${fmtS(sp[2][best])} s`, nodes = sp[3][best];
  return nodes.length ? `flow ${fi} (${f.src}\u2192${f.dst}): route ${nodes.join("\u2192")}, ${hops(nodes)}, ${when}`
    : `flow ${fi} (${f.src}\u2192${f.dst}): no route, ${when} (data held for a route or dropped for want of one)`;
}

// ---------------------------------------------------------------- the flows
function drawFlows() {
  const box = document.getElementById("flows");
  box.replaceChildren();
  const s = D.series;
  D.flows.forEach((f, fi) => {
    const h = 110, w = 900;
    const wrap = document.createElement("div"); wrap.className = "flow";
    const title = document.createElement("div");
    title.textContent = `flow ${fi}: ${f.src}\u2192${f.dst} (${f.transport}), goodput ${f.goodput_kbps.toFixed(1)} kbit/s` +
      (f.retransmissions != null ? `, ${f.retransmissions} retransmissions` : "");
    title.style.color = flowColour(fi);
    wrap.appendChild(title);
    const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: "flowchart", "data-flow": fi }, wrap);
    const pts = [];
    for (let i = 0; i < s.time_s.length; i++) if (s.flow[i] === fi) pts.push(i);
    const xs = us => LABEL_PX + (us - view.t0) / (view.t1 - view.t0) * (w - LABEL_PX);
    const toUs = t => (t - D.window[0]) * 1e6;
    const series = (key, colour, cls) => {
      const vals = pts.map(i => s[key][i]).filter(v => v != null);
      const max = Math.max(1, ...vals);
      const line = pts.filter(i => s[key][i] != null)
        .map(i => `${xs(toUs(s.time_s[i])).toFixed(1)},${(h - 14 - s[key][i] / max * (h - 24)).toFixed(1)}`).join(" ");
      if (line) el("polyline", { points: line, stroke: colour, class: cls }, svg);
      const label = el("text", { x: 2, y: cls === "cwnd" ? 12 : 24, fill: colour, class: "axis" }, svg);
      label.textContent = `${key} \u2264 ${max.toFixed(1)}`;
    };
    series("goodput_kbps", "#999", "goodput");
    if (f.transport === "tcp") series("cwnd", flowColour(fi), "cwnd");
    // RTT samples (ms) as dots, scaled to their own maximum.
    const r = D.rtt, idx = [];
    for (let i = 0; i < r[0].length; i++) if (r[0][i] === fi && r[1][i] >= view.t0 && r[1][i] <= view.t1) idx.push(i);
    if (idx.length) {
      const max = Math.max(...idx.map(i => r[2][i]));
      const step = Math.max(1, Math.floor(idx.length / 2000));
      for (let k = 0; k < idx.length; k += step) {
        const i = idx[k];
        el("circle", { cx: xs(r[1][i]).toFixed(1), cy: (h - 14 - r[2][i] / max * (h - 24)).toFixed(1), r: 1.2, class: "rtt" }, svg);
      }
      const label = el("text", { x: 2, y: 36, fill: "#2ca02c", class: "axis" }, svg);
      label.textContent = `rtt_ms \u2264 ${max.toFixed(1)}`;
    }
    const m = D.tcp_marks;
    for (let i = 0; i < m[0].length; i++) {
      if (m[0][i] !== fi || m[1][i] < view.t0 || m[1][i] > view.t1) continue;
      el("line", { x1: xs(m[1][i]), x2: xs(m[1][i]), y1: h - 12, y2: h, class: m[2][i] ? "timeout" : "retx" }, svg);
    }
    box.appendChild(wrap);
  });
}

// ---------------------------------------------------------------- details and journeys
let journeyNodes = [];
function showJourney(packet, heading) {
  const rows = D.journeys[packet] || [];
  const det = document.getElementById("details");
  det.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = heading || `packet ${packet}`;
  det.appendChild(h);
  const table = document.createElement("table"); table.id = "journey"; table.dataset.packet = packet;
  table.innerHTML = "<tr><th>time (s)</th><th>node</th><th>what</th></tr>";
  journeyNodes = [];
  const words = { send: "sent", retransmission: "retransmitted", ack: "sent (ACK)", dequeue: "to the MAC",
    hold: "held for a route", release: "released", receive: "received", link_failure: "link failure" };
  for (const [us, node, step, detail] of rows) {
    const name = D.steps[step];
    const what = name === "enqueue" ? `queued for ${detail}` : name === "drop" ? `dropped (${D.reasons[detail]})` : words[name];
    const tr = document.createElement("tr");
    for (const v of [fmtS(us), node, what]) { const td = document.createElement("td"); td.textContent = v; tr.appendChild(td); }
    table.appendChild(tr);
    if (what.startsWith("queued") || what === "received" || what.startsWith("sent")) {
      if (journeyNodes[journeyNodes.length - 1] !== node) journeyNodes.push(node);
    }
  }
  if (!rows.length) {
    const p = document.createElement("p");
    p.textContent = packet > 0 ? "no journey recorded for this packet (outside the window, or beyond the page's limit)"
      : "a control frame: it carries no packet";
    det.appendChild(p);
  }
  det.appendChild(table);
  document.getElementById("status").dataset.journey = rows.length;
  drawNet();
}
function pick(ev) {
  const rect = air.getBoundingClientRect(), w = air.width;
  const x = (ev.clientX - rect.left) * (w / rect.width), y = ev.clientY - rect.top;
  const node = Math.floor(y / ROW_PX), us = usOf(x, w), tol = 4 / (w - LABEL_PX) * (view.t1 - view.t0);
  const text = node >= D.nodes.length ? routeText(node - D.nodes.length, us, tol) : null;
  if (text) {
    const det = document.getElementById("details"), h = document.createElement("h3");
    h.textContent = text; det.replaceChildren(h); journeyNodes = [];
  }
  const d = D.drops;
  for (let i = 0; i < d[0].length; i++) {
    if (d[0][i] === node && Math.abs(d[1][i] - us) <= tol) {
      showJourney(d[4][i], `drop at node ${node}, ${fmtS(d[1][i])} s: ${D.reasons[d[3][i]]} (${D.layers[d[2][i]]}), packet ${d[4][i]}`);
      return;
    }
  }
  const f = D.frames;
  for (let i = 0; i < f[0].length; i++) {
    if (f[0][i] === node && f[1][i] - tol <= us && us <= f[2][i] + tol) {
      const to = f[4][i] < 0 ? "broadcast" : `to ${f[4][i]}`;
      const kind = CONTROL.has(i) ? `${controlName(i)} (DATA)` : KINDS[f[3][i]].toUpperCase();
      showJourney(f[5][i] || 0, `${kind} from ${node} ${to}, ${fmtS(f[1][i])}\u2013${fmtS(f[2][i])} s` + (f[5][i] ? `, packet ${f[5][i]}` : ""));
      return;
    }
  }
  view.cursor = Math.max(0, Math.min(spanUs, Math.round(us)));
  document.getElementById("t").value = view.cursor;
  drawAll();
}

// ---------------------------------------------------------------- zoom, pan, wiring
function drawAll() { drawNet(); drawAir(); drawFlows(); updateStatus(); }
function updateStatus() {
  const st = document.getElementById("status");
  st.dataset.nodes = net.querySelectorAll("g.node").length;
  st.dataset.frames = drawn.frames; st.dataset.drops = drawn.drops; st.dataset.losses = drawn.losses;
  st.dataset.flows = document.querySelectorAll("svg.flowchart").length;
  st.dataset.view = `${view.t0},${view.t1}`;
  st.dataset.routes = drawn.routes; st.dataset.noRoute = drawn.noRoute; st.dataset.changes = drawn.changes;
  st.textContent = `showing ${fmtS(view.t0)}\u2013${fmtS(view.t1)} s: ${drawn.frames} frames, ${drawn.losses} lost receptions, ${drawn.drops} drops`;
}
air.addEventListener("wheel", ev => {
  ev.preventDefault();
  const w = air.width, rect = air.getBoundingClientRect();
  const at = usOf((ev.clientX - rect.left) * (w / rect.width), w), k = ev.deltaY > 0 ? 1.25 : 0.8;
  view.t0 = Math.max(0, at - (at - view.t0) * k); view.t1 = Math.min(spanUs, at + (view.t1 - at) * k);
  if (view.t1 - view.t0 < 10) view.t1 = view.t0 + 10;
  drawAir(); drawFlows(); updateStatus();
}, { passive: false });
let drag = null;
air.addEventListener("mousedown", ev => { drag = { x: ev.clientX, t0: view.t0, t1: view.t1, moved: false }; });
// Hover on a route lane: the route (or its absence) as the canvas's tooltip.
air.addEventListener("mousemove", ev => {
  if (drag) return;
  const rect = air.getBoundingClientRect(), w = air.width, row = Math.floor((ev.clientY - rect.top) / ROW_PX) - D.nodes.length;
  const tol = 4 / (w - LABEL_PX) * (view.t1 - view.t0);
  const text = row >= 0 && row < D.flows.length ? routeText(row, usOf((ev.clientX - rect.left) * (w / rect.width), w), tol) : null;
  air.title = text || "";
});
window.addEventListener("mouseup", ev => { if (drag && !drag.moved) pick(ev); drag = null; });
window.addEventListener("mousemove", ev => {
  if (!drag) return;
  const dx = ev.clientX - drag.x; if (Math.abs(dx) > 3) drag.moved = true;
  const shift = -dx / (air.clientWidth - LABEL_PX) * (drag.t1 - drag.t0);
  const s = Math.max(-drag.t0, Math.min(spanUs - drag.t1, shift));
  view.t0 = drag.t0 + s; view.t1 = drag.t1 + s; drawAir(); drawFlows(); updateStatus();
});
air.addEventListener("dblclick", () => { view.t0 = 0; view.t1 = spanUs; drawAll(); });
const slider = document.getElementById("t");
slider.max = spanUs; slider.step = Math.max(1, Math.round(spanUs / 2000));
slider.addEventListener("input", () => { view.cursor = Number(slider.value); drawNet(); drawAir(); updateStatus(); });
window.addEventListener("resize", () => drawAir());
// Play: the scrubber crosses the window in about 30 s of wall time (nodes move, senders light up).
let playing = null;
document.getElementById("play").addEventListener("click", ev => {
  if (playing) { clearInterval(playing); playing = null; ev.target.textContent = "play"; return; }
  ev.target.textContent = "pause";
  const step = Math.max(1, Math.round(spanUs / 600));
  playing = setInterval(() => {
    view.cursor = view.cursor + step > spanUs ? 0 : view.cursor + step;
    slider.value = view.cursor; drawNet(); drawAir(); updateStatus();
  }, 50);
});

netTransform();
drawAll();
function fromAddress() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("t")) { view.cursor = Math.round((Number(hash.get("t")) - D.window[0]) * 1e6); slider.value = view.cursor; drawAll(); }
  if (hash.has("packet")) showJourney(hash.get("packet"));
}
window.addEventListener("hashchange", fromAddress);
fromAddress();
document.getElementById("status").dataset.ready = "1";
