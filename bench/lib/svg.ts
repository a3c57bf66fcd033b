// A hand-written SVG chart: a column of panels, each grouped bars (median with a min–max whisker)
// or lines. No chart library: a few rectangles, lines and text.

export interface Bar {
  label: string;
  value: number;
  min?: number;
  max?: number;
}
export interface BarPanel {
  kind: 'bars';
  title: string;
  unit: string;
  /** Draw on a log scale (values > 0). */
  log?: boolean;
  groups: Array<{ label: string; bars: Bar[] }>;
}
export interface LinePanel {
  kind: 'lines';
  title: string;
  xLabel: string;
  unit: string;
  series: Array<{ label: string; points: Array<{ x: number; y: number }> }>;
}
export type Panel = BarPanel | LinePanel;

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];
const W = 900;
const PANEL_H = 300;
const M = { left: 70, right: 190, top: 40, bottom: 50 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2));

function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function legend(labels: string[], x: number, y: number): string {
  return labels
    .map(
      (l, i) =>
        `<rect x="${x}" y="${y + i * 18}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/><text x="${x + 18}" y="${y + i * 18 + 10}" font-size="12">${esc(l)}</text>`,
    )
    .join('');
}

function bars(p: BarPanel, top: number): string {
  const plotW = W - M.left - M.right;
  const plotH = PANEL_H - M.top - M.bottom;
  const y0 = top + M.top + plotH;
  const all = p.groups.flatMap((g) => g.bars.flatMap((b) => [b.value, b.max ?? b.value]));
  const labels = [...new Set(p.groups.flatMap((g) => g.bars.map((b) => b.label)))];
  let scale: (v: number) => number;
  const ticks: number[] = [];
  if (p.log) {
    const positive = all.filter((v) => v > 0);
    const lo = 10 ** Math.floor(Math.log10(Math.min(...positive)));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
    scale = (v) => ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;
    for (let t = lo; t <= hi * 1.001; t *= 10) ticks.push(t);
  } else {
    const max = niceMax(Math.max(...all));
    scale = (v) => (v / max) * plotH;
    for (let i = 0; i <= 4; i++) ticks.push((max * i) / 4);
  }
  let out = `<text x="${M.left}" y="${top + 22}" font-size="15" font-weight="bold">${esc(p.title)}</text>`;
  for (const t of ticks) {
    const y = y0 - scale(t);
    out += `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${M.left - 6}" y="${y + 4}" font-size="11" text-anchor="end">${num(t)}</text>`;
  }
  out += `<text x="16" y="${top + M.top + plotH / 2}" font-size="12" transform="rotate(-90 16 ${top + M.top + plotH / 2})" text-anchor="middle">${esc(p.unit)}${p.log ? ' (log)' : ''}</text>`;
  const gw = plotW / p.groups.length;
  p.groups.forEach((g, gi) => {
    const bw = Math.min(40, (gw * 0.8) / Math.max(1, g.bars.length));
    const gx = M.left + gi * gw + (gw - bw * g.bars.length) / 2;
    g.bars.forEach((b, bi) => {
      const color = PALETTE[labels.indexOf(b.label) % PALETTE.length];
      const x = gx + bi * bw;
      const h = scale(b.value);
      out += `<rect x="${x + 2}" y="${y0 - h}" width="${bw - 4}" height="${Math.max(0, h)}" fill="${color}"><title>${esc(`${g.label} / ${b.label}: ${num(b.value)} ${p.unit}`)}</title></rect>`;
      if (b.min !== undefined && b.max !== undefined) {
        const cx = x + bw / 2;
        out += `<line x1="${cx}" x2="${cx}" y1="${y0 - scale(b.min)}" y2="${y0 - scale(b.max)}" stroke="#222"/>`;
        out += `<line x1="${cx - 4}" x2="${cx + 4}" y1="${y0 - scale(b.max)}" y2="${y0 - scale(b.max)}" stroke="#222"/><line x1="${cx - 4}" x2="${cx + 4}" y1="${y0 - scale(b.min)}" y2="${y0 - scale(b.min)}" stroke="#222"/>`;
      }
    });
    out += `<text x="${M.left + gi * gw + gw / 2}" y="${y0 + 18}" font-size="12" text-anchor="middle">${esc(g.label)}</text>`;
  });
  out += `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y0}" y2="${y0}" stroke="#333"/>`;
  return out + legend(labels, W - M.right + 14, top + M.top);
}

function lines(p: LinePanel, top: number): string {
  const plotW = W - M.left - M.right;
  const plotH = PANEL_H - M.top - M.bottom;
  const y0 = top + M.top + plotH;
  const pts = p.series.flatMap((s) => s.points);
  const xMax = niceMax(Math.max(...pts.map((q) => q.x)));
  const yMax = niceMax(Math.max(...pts.map((q) => q.y)));
  const sx = (x: number) => M.left + (x / xMax) * plotW;
  const sy = (y: number) => y0 - (y / yMax) * plotH;
  let out = `<text x="${M.left}" y="${top + 22}" font-size="15" font-weight="bold">${esc(p.title)}</text>`;
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    out += `<line x1="${M.left}" x2="${M.left + plotW}" y1="${sy(v)}" y2="${sy(v)}" stroke="#ddd"/><text x="${M.left - 6}" y="${sy(v) + 4}" font-size="11" text-anchor="end">${num(v)}</text>`;
    const xv = (xMax * i) / 4;
    out += `<text x="${sx(xv)}" y="${y0 + 16}" font-size="11" text-anchor="middle">${num(xv)}</text>`;
  }
  out += `<text x="${M.left + plotW / 2}" y="${y0 + 36}" font-size="12" text-anchor="middle">${esc(p.xLabel)}</text>`;
  out += `<text x="16" y="${top + M.top + plotH / 2}" font-size="12" transform="rotate(-90 16 ${top + M.top + plotH / 2})" text-anchor="middle">${esc(p.unit)}</text>`;
  p.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    out += `<polyline fill="none" stroke="${color}" stroke-width="2" points="${s.points.map((q) => `${sx(q.x).toFixed(1)},${sy(q.y).toFixed(1)}`).join(' ')}"/>`;
    for (const q of s.points)
      out += `<circle cx="${sx(q.x)}" cy="${sy(q.y)}" r="3" fill="${color}"><title>${esc(`${s.label}: ${q.x} → ${num(q.y)} ${p.unit}`)}</title></circle>`;
  });
  out += `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y0}" y2="${y0}" stroke="#333"/>`;
  return (
    out +
    legend(
      p.series.map((s) => s.label),
      W - M.right + 14,
      top + M.top,
    )
  );
}

export function renderSvg(title: string, subtitle: string, panels: Panel[]): string {
  const head = 60;
  const H = head + panels.length * PANEL_H;
  let body = `<text x="${M.left}" y="28" font-size="18" font-weight="bold">${esc(title)}</text><text x="${M.left}" y="48" font-size="12" fill="#555">${esc(subtitle)}</text>`;
  panels.forEach((p, i) => {
    body += p.kind === 'bars' ? bars(p, head + i * PANEL_H) : lines(p, head + i * PANEL_H);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif"><rect width="${W}" height="${H}" fill="#fff"/>${body}</svg>\n`;
}
