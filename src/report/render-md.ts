// The migration report as Markdown: a summary table, then one section per item that asks. Every
// value from a server, the configuration or an audit file goes through `text` or `code`, so none
// is read as Markdown or HTML (a link, a tag, a table cell, a new block).
import type { Question, ItemReport, ReportModel, Stats } from './model.js';
import { inputRequestsByRound } from './migration.js';
import { type RootsItem, type RootsReading, rootsWhy } from './roots-readers.js';
import { differenceLabel, type ShadowItem } from './shadow.js';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Inline Markdown text that reads as itself: `<`, `>` and `&` as entities (no tag, no entity of
 * the value's own); backslash-escaped what opens a link, image, emphasis, code span, math or
 * strikethrough, or ends a table cell; line breaks as spaces (no new block: every line starts with
 * the renderer's own text). Other punctuation means nothing mid-line and stays readable.
 */
export function text(s: string): string {
  return s.replace(/\r\n|[\r\n]/g, ' ').replace(/[\\`*_[\]|~!$<>&]/g, (c) => ENTITIES[c] ?? `\\${c}`);
}

/** A code span holding `s` literally: its fence is longer than any run of backticks in it. */
export function code(s: string): string {
  const flat = s.replace(/\r\n|[\r\n]/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A space each side keeps a leading or trailing backtick off the fence (CommonMark strips one).
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** JSON for a fenced block: no backtick closes the fence, no `<` or `&` reaches a renderer that ignores fences. */
export function fencedJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[`<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function ms(s: Stats | undefined): string {
  return s ? `${s.median} ms (p90 ${s.p90}, max ${s.max})` : '–';
}

export function asksLabel(i: ItemReport): string {
  if (i.asks === 'unknown') return 'not audited';
  if (i.asks === 'no') return `no (${i.calls} call${i.calls === 1 ? '' : 's'})`;
  return `yes, ${i.callsThatAsked} of ${i.calls} call${i.calls === 1 ? '' : 's'}`;
}

export function questionLabel(q: Question): string {
  const mode = q.elicitationMode ? ` (${q.elicitationMode})` : '';
  const fields = q.schema
    ? `: ${
        Object.entries(q.schema.properties)
          .map(([k, p]) => `${k}${p.required ? '' : '?'}: ${p.type}`)
          .join(', ') || 'no fields'
      }`
    : '';
  const actions = Object.entries(q.actions)
    .map(([a, n]) => `${a} ${n}`)
    .join(', ');
  return `${q.method}${mode}${fields}; asked ${q.count}×, round ${q.round}; ${actions}`;
}

/** Each annotation to add with why. */
export function annotateLabel(i: ItemReport): string {
  return i.migration.annotate.map((a) => `${a.annotation} (${a.why})`).join('; ');
}

export function counts(c: Record<string, number>): string {
  return (
    Object.entries(c)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') || '–'
  );
}

/** Whether replaying matched: answers served from the record, questions the server changed on a re-run. */
export function replayLabel(r: NonNullable<ItemReport['replay']>): string {
  const matched =
    r.mismatched === 0 ? 'every re-run asked what the record held' : `${r.mismatched} re-run question(s) did not match the record and were asked anew`;
  return `${r.calls} replayed call(s) in ${r.runs} run(s); ${r.fromRecord} answer(s) served from the record; ${matched}`;
}

function section(i: ItemReport): string {
  const lines = [
    `### ${text(i.kind)} ${code(i.name)} (${text(i.upstream)})`,
    '',
    `- asks: ${text(asksLabel(i))}${i.declared ? '' : ' (not declared by the server now)'}`,
    `- rounds per call: ${text(counts(i.rounds))}; outcomes: ${text(counts(i.outcomes))}; modes: ${text(counts(i.modes))}`,
    `- client think time: ${text(ms(i.thinkMs))}; legacy server time: ${text(ms(i.serverMs))}`,
    ...(i.replay ? [`- replays: ${text(replayLabel(i.replay))}`] : []),
    ...i.questions.map((q) => `- question: ${text(questionLabel(q))}`),
    `- safe to replay: ${text(i.migration.replay.safe)} (${text(i.migration.replay.why)})`,
    ...(i.migration.annotate.length ? [`- annotate: ${text(annotateLabel(i))}`] : []),
    ...(i.migration.readsRoots ? [`- reads the roots the server asked for outside calls: ${text(i.migration.readsRoots)}`] : []),
    '',
    'A 2026-07-28 version returns, when it needs these answers:',
    '',
    ...inputRequestsByRound(i.migration.inputRequests).flatMap(({ round, inputRequests }) => [
      `Round ${round}, \`inputRequests\`:`,
      '',
      '```json',
      fencedJson(inputRequests),
      '```',
      '',
    ]),
  ];
  return lines.join('\n');
}

export function renderMarkdown(m: ReportModel): string {
  const out = [
    '# Migration report',
    '',
    `Generated ${m.generatedAt} from ${m.audit.records} audited call(s) in ${m.audit.files.length} file(s)${m.audit.skippedLines ? ` (${m.audit.skippedLines} unreadable line(s) skipped)` : ''}.`,
    '',
    ...m.upstreams.map(
      (u) => `- upstream ${code(u.name)}: ${u.server ? text(`${u.server.name} ${u.server.version}`) : ''}${u.error ? ` ${text(u.error)}` : ''}`,
    ),
    '',
    '| upstream | kind | name | asks | methods | rounds | think time (median) | safe to replay | annotate |',
    '|---|---|---|---|---|---|---|---|---|',
    ...m.items.map(
      (i) =>
        `| ${text(i.upstream)} | ${text(i.kind)} | ${text(i.name)} | ${text(asksLabel(i))} | ${text(i.methods.join(', ') || '–')} | ${text(counts(i.rounds))} | ${i.thinkMs ? text(`${i.thinkMs.median} ms`) : '–'} | ${text(i.migration.replay.safe)} | ${text(i.migration.annotate.map((a) => a.annotation).join(', ') || '–')} |`,
    ),
    '',
    '## What asks',
    '',
    ...m.items.filter((i) => i.asks === 'yes').map(section),
    ...rootsSection(m),
    ...shadowSection(m),
  ];
  return `${out.join('\n')}\n`;
}

/**
 * What the report says of one upstream's roots, as plain sentences: shared by the Markdown and HTML
 * renderers. `name` writes an upstream's or item's name (a Markdown code span by default).
 */
export function rootsText(
  r: RootsReading,
  name: (s: string) => string = (s) => `\`${s}\``,
): { intro: string; readers: string[]; others: string[]; how: string } {
  const label = (i: RootsItem) => `${i.kind} ${name(i.name)}`;
  const intro =
    r.roundCalls > 0
      ? `Upstream ${name(r.upstream)} asks for the client's roots outside calls (at initialize): ${r.roundCalls} audited call(s) had the proxy's roots round before them (docs/roots.md), so its tools ask nothing for the roots in their calls. A 2026-07-28 server is told no roots before a call: each tool that reads them asks in its own first round, \`{"roots": {"method": "roots/list"}}\`, its other questions one round later.`
      : `Upstream ${name(r.upstream)}: no audited call had the proxy's roots round; the tools named by --roots-tools ask for the roots in their first round, \`{"roots": {"method": "roots/list"}}\`, their other questions one round later.`;
  const readers = r.items.filter((i) => i.reads).map((i) => `${label(i)}: ${rootsWhy(i)}`);
  const others = r.items
    .filter((i) => !i.reads)
    .map((i) =>
      i.checked === 0
        ? `${label(i)}: ${i.calls} call(s), not checked (audited without --audit-questions)`
        : `${label(i)}: its result named no root in ${i.checked} audited call(s)`,
    );
  const how =
    'A tool that reads the roots without naming one in its result (it only filters by them, say) cannot be told from the audit: name it with `--roots-tools NAME[,NAME...]` and generate again.';
  return { intro, readers, others, how };
}

function rootsSection(m: ReportModel): string[] {
  if (m.roots.length === 0) return [];
  return [
    '## Roots read outside calls',
    '',
    ...m.roots.flatMap((r) => {
      const t = rootsText(r, code);
      return [
        t.intro,
        '',
        `Judged to read the roots (their handlers ask for them first):${t.readers.length ? '' : ' none'}`,
        ...t.readers.map((x) => `- ${x}`),
        '',
        ...(t.others.length ? ['Not judged to read them:', ...t.others.map((x) => `- ${x}`), ''] : []),
        t.how,
        '',
      ];
    }),
  ];
}

/** What a shadow item's comparisons came to, in one line. */
export function shadowSummary(s: ShadowItem): string {
  const errors = Object.entries(s.errors)
    .map(([why, n]) => `${why} (${n}×)`)
    .join(', ');
  return `${s.differed} comparison(s) differed, ${s.candidateErrors} candidate error(s)${errors ? `: ${errors}` : ''}`;
}

function shadowSection(m: ReportModel): string[] {
  if (m.shadow.length === 0) return [];
  return [
    '## Shadow differences',
    '',
    ...m.shadow.flatMap((s) => [
      `### ${text(s.method)} ${code(s.name)} (${text(s.upstream)} → ${text(s.candidate)})`,
      '',
      `- ${text(shadowSummary(s))}`,
      ...s.differences.map((d) => `- ${text(differenceLabel(d))}`),
      '',
    ]),
  ];
}
