// The live view's page: one HTML document with its CSS and script inline (no build step, no CDN,
// works offline). It opens /dashboard/ws and redraws from each snapshot; ages tick locally.
export const DASHBOARD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mrtr-proxy dashboard</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d232b;background:#fafbfc}
h1{font-size:1.3rem;margin:0 0 .2rem}h2{font-size:1rem;margin:1.2rem 0 .4rem}
#conn{font-size:12px;padding:.1rem .5rem;border-radius:1rem;background:#ccc}#conn.on{background:#bfe5c4}#conn.off{background:#f3c4c4}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #dde2e8;padding:.25rem .5rem;text-align:left}th{background:#eef1f5}
.ready{color:#16702a;font-weight:600}.down{color:#a31515;font-weight:600}.num{font-size:1.6rem;font-weight:600;margin-right:1.5rem}
.empty{color:#777;font-style:italic}code{font-family:ui-monospace,monospace;font-size:12px}
</style></head><body>
<h1>mrtr-proxy <span id="conn">connecting…</span></h1>
<div><span class="num" id="inflight">0</span>interactive calls in flight, <span class="num" id="waitcount">0</span>waiting for their client</div>
<h2>Upstreams</h2><table><thead><tr><th>name</th><th>era</th><th>health</th><th>sessions (open / held / waiting on client / max)</th></tr></thead><tbody id="upstreams"></tbody></table>
<h2>Waiting interactions</h2><table><thead><tr><th>tool, prompt or resource</th><th>upstream</th><th>round</th><th>asking</th><th>age</th></tr></thead><tbody id="waiting"></tbody></table>
<h2>Waiting by tool</h2><table><thead><tr><th>tool</th><th>waiting</th><th>oldest</th></tr></thead><tbody id="bytool"></tbody></table>
<h2>Recent rounds</h2><table><thead><tr><th>when</th><th>upstream</th><th>target</th><th>round</th><th>event</th><th>detail</th></tr></thead><tbody id="recent"></tbody></table>
<script>
"use strict";
let last = null, receivedAt = 0;
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const age = (ms) => ms < 1000 ? ms + " ms" : ms < 60000 ? (ms / 1000).toFixed(1) + " s" : Math.floor(ms / 60000) + " min " + Math.floor((ms % 60000) / 1000) + " s";
const rows = (id, list, cols, empty) => {
  document.getElementById(id).innerHTML = list.length ? list.map((r) => "<tr" + (r.attrs || "") + ">" + cols(r).map((c) => "<td>" + c + "</td>").join("") + "</tr>").join("") : '<tr><td class="empty" colspan="6">' + empty + "</td></tr>";
};
function draw() {
  if (!last) return;
  const now = last.now + (Date.now() - receivedAt);
  const waiting = last.calls.filter((c) => c.state === "waiting");
  document.getElementById("inflight").textContent = last.calls.length;
  document.getElementById("waitcount").textContent = waiting.length;
  rows("upstreams", last.upstreams, (u) => {
    const s = u.status, sess = s && s.sessions;
    return [esc(u.name) + (u.default ? " (default)" : ""), esc(u.era), s ? (s.ready ? '<span class="ready">ready</span>' : '<span class="down">not ready</span> ' + esc(s.error || "")) : "…",
      sess ? [sess.open, sess.held, sess.onClient, sess.max].join(" / ") : "–"];
  }, "no upstreams");
  rows("waiting", waiting.map((c) => ({ ...c, attrs: ' class="waiting-row" data-target="' + esc(c.target) + '"' })),
    (c) => ["<code>" + esc(c.target) + "</code>", esc(c.upstream), c.round, esc(c.asking.join(", ")), age(now - c.since)], "nobody is waiting");
  const by = {};
  for (const c of waiting) { const b = (by[c.target] ??= { target: c.target, n: 0, oldest: c.since }); b.n++; b.oldest = Math.min(b.oldest, c.since); }
  rows("bytool", Object.values(by), (b) => ["<code>" + esc(b.target) + "</code>", b.n, age(now - b.oldest)], "–");
  rows("recent", last.recent, (r) => [new Date(r.at).toLocaleTimeString(), esc(r.upstream), "<code>" + esc(r.target) + "</code>", r.round, esc(r.event), esc(r.detail)], "no rounds yet");
}
function connect() {
  const conn = document.getElementById("conn");
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/dashboard/ws");
  ws.onopen = () => { conn.textContent = "live"; conn.className = "on"; };
  ws.onmessage = (m) => { last = JSON.parse(m.data); receivedAt = Date.now(); draw(); };
  ws.onclose = () => { conn.textContent = "disconnected, retrying"; conn.className = "off"; setTimeout(connect, 1000); };
}
setInterval(draw, 1000);
connect();
</script></body></html>
`;
