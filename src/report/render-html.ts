// The migration report as one self-contained HTML file: inline CSS and SVG charts (rounds per
// call, think time, questions per tool), no script, nothing fetched. Server-defined names are escaped.
import type { ItemReport, ReportModel } from './model.js';
import { inputRequestsByRound } from './migration.js';
import { annotateLabel, asksLabel, ms, questionLabel, replayLabel, rootsText, shadowSummary } from './render-md.js';
import type { RootsReading } from './roots-readers.js';
import { differenceLabel, type ShadowItem } from './shadow.js';
import { barChart, escapeHtml as e } from './svg.js';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d232b;max-width:72rem}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d4d9e0;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f5}tr.yes td:nth-child(4){font-weight:600;color:#8a3b00}code,pre{font-family:ui-monospace,monospace;font-size:12px}
pre{background:#f5f7fa;padding:.6rem;overflow:auto}.chart rect{fill:#3b6fb6}.chart text{font-size:12px;fill:#1d232b}.chart .title{font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}section{border-top:1px solid #d4d9e0;margin-top:1.5rem}`;

function itemLabel(i: ItemReport): string {
  return `${i.upstream}/${i.name}`;
}

function section(i: ItemReport): string {
  return `<section id="${e(`${i.upstream}-${i.kind}-${i.name}`)}"><h3>${i.kind} <code>${e(i.name)}</code> (${e(i.upstream)})</h3><ul>
<li>asks: ${e(asksLabel(i))}${i.declared ? '' : ' (not declared by the server now)'}</li>
<li>client think time: ${e(ms(i.thinkMs))}; legacy server time: ${e(ms(i.serverMs))}</li>
${i.replay ? `<li>replays: ${e(replayLabel(i.replay))}</li>` : ''}
${i.questions.map((q) => `<li>question: ${e(questionLabel(q))}</li>`).join('\n')}
<li>safe to replay: <b>${e(i.migration.replay.safe)}</b> (${e(i.migration.replay.why)})</li>
${i.migration.annotate.length ? `<li>annotate: ${e(annotateLabel(i))}</li>` : ''}
${i.migration.readsRoots ? `<li>reads the roots the server asked for outside calls: ${e(i.migration.readsRoots)}</li>` : ''}
</ul><p>A 2026-07-28 version returns, when it needs these answers:</p>${inputRequestsByRound(i.migration.inputRequests)
    .map(({ round, inputRequests }) => `<p>Round ${round}, <code>inputRequests</code>:</p><pre>${e(JSON.stringify(inputRequests, null, 2))}</pre>`)
    .join('')}</section>`;
}

function rootsHtml(r: RootsReading): string {
  const t = rootsText(r);
  // The shared text marks names as Markdown code spans.
  const h = (x: string) => e(x).replace(/`([^`]+)`/g, '<code>$1</code>');
  const list = (xs: string[]) => `<ul>${xs.map((x) => `<li>${h(x)}</li>`).join('')}</ul>`;
  return `<section class="roots"><p>${h(t.intro)}</p>
<p>Judged to read the roots (their handlers ask for them first):${t.readers.length ? '' : ' none'}</p>${t.readers.length ? list(t.readers) : ''}
${t.others.length ? `<p>Not judged to read them:</p>${list(t.others)}` : ''}
<p>${h(t.how)}</p></section>`;
}

function shadowHtml(s: ShadowItem): string {
  return `<section class="shadow"><h3>${e(s.method)} <code>${e(s.name)}</code> (${e(s.upstream)} → ${e(s.candidate)})</h3><ul>
<li>${e(shadowSummary(s))}</li>
${s.differences.map((d) => `<li>${e(differenceLabel(d))}</li>`).join('\n')}
</ul></section>`;
}

export function renderHtml(m: ReportModel): string {
  const asking = m.items.filter((i) => i.asks === 'yes');
  const rounds = Object.entries(m.roundsPerCall)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([r, n]) => ({ label: `${r} round${r === '1' ? '' : 's'}`, value: n }));
  const think = asking.filter((i) => i.thinkMs).map((i) => ({ label: itemLabel(i), value: i.thinkMs!.median }));
  const questions = asking.map((i) => ({ label: itemLabel(i), value: i.questions.reduce((n, q) => n + q.count, 0) }));
  const rows = m.items
    .map(
      (i) =>
        `<tr class="${i.asks}"><td>${e(i.upstream)}</td><td>${i.kind}</td><td>${i.asks === 'yes' ? `<a href="#${e(`${i.upstream}-${i.kind}-${i.name}`)}">${e(i.name)}</a>` : e(i.name)}</td><td>${e(asksLabel(i))}</td><td>${e(i.methods.join(', ') || '–')}</td><td>${e(i.migration.replay.safe)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Migration report</title><style>${STYLE}</style></head><body>
<h1>Migration report</h1>
<p>Generated ${e(m.generatedAt)} from ${m.audit.records} audited call(s) in ${m.audit.files.length} file(s)${m.audit.skippedLines ? ` (${m.audit.skippedLines} unreadable line(s) skipped)` : ''}.</p>
<ul>${m.upstreams.map((u) => `<li>upstream <code>${e(u.name)}</code>: ${e(u.server ? `${u.server.name} ${u.server.version}` : '')} ${e(u.error ?? '')}</li>`).join('')}</ul>
<div class="charts">${barChart('Rounds per call', rounds, [' call', ' calls'])}${barChart('Think time per tool (median)', think, ' ms')}${barChart('Questions per tool', questions)}</div>
<table><thead><tr><th>upstream</th><th>kind</th><th>name</th><th>asks</th><th>methods</th><th>safe to replay</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>What asks</h2>
${asking.map(section).join('\n')}
${m.roots.length ? `<h2>Roots read outside calls</h2>\n${m.roots.map(rootsHtml).join('\n')}` : ''}
${m.shadow.length ? `<h2>Shadow differences</h2>\n${m.shadow.map(shadowHtml).join('\n')}` : ''}
</body></html>
`;
}
