// Plain-text and markdown tables.

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  notes?: string[];
}

export function renderText(t: Table): string {
  const widths = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [t.title, line(t.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...t.rows.map(line)];
  for (const n of t.notes ?? []) out.push(`  ${n}`);
  return `${out.join('\n')}\n`;
}

export function renderMarkdown(t: Table): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [`### ${t.title}`, '', `| ${t.columns.map(esc).join(' | ')} |`, `| ${t.columns.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const r of t.rows) out.push(`| ${r.map(esc).join(' | ')} |`);
  if (t.notes?.length) out.push('', ...t.notes.map((n) => `- ${n}`));
  return `${out.join('\n')}\n`;
}
