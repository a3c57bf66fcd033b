// Inline SVG bar charts for the HTML report: no script, no library, no network.

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export interface Bar {
  label: string;
  value: number;
}

/** A bar's unit after its value: one for every count, or a singular and a plural. */
export type Unit = string | readonly [one: string, many: string];

const withUnit = (value: number, unit: Unit): string => `${value}${typeof unit === 'string' ? unit : value === 1 ? unit[0] : unit[1]}`;

/** Horizontal bars, one row per bar, scaled to the largest value; `unit` follows each value. */
export function barChart(title: string, bars: readonly Bar[], unit: Unit = ''): string {
  const row = 22;
  const labelWidth = 220;
  const barWidth = 320;
  const height = 30 + Math.max(1, bars.length) * row;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rows = bars.map((b, i) => {
    const y = 26 + i * row;
    const w = Math.max(1, Math.round((b.value / max) * barWidth));
    return [
      `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(b.label.length > 34 ? `${b.label.slice(0, 33)}…` : b.label)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${w}" height="16" rx="2"><title>${escapeHtml(`${b.label}: ${withUnit(b.value, unit)}`)}</title></rect>`,
      `<text x="${labelWidth + w + 6}" y="${y + 13}">${escapeHtml(withUnit(b.value, unit))}</text>`,
    ].join('');
  });
  const empty = bars.length === 0 ? `<text x="${labelWidth}" y="40">no data</text>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${escapeHtml(title)}" width="${labelWidth + barWidth + 80}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 80} ${height}"><text x="0" y="14" class="title">${escapeHtml(title)}</text>${rows.join('')}${empty}</svg>`;
}
