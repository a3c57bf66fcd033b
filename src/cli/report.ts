// `mrtr-proxy report`: what the server declares plus what the audit saw, as Markdown, HTML or
// JSON. The server is named as for the proxy (--upstream, -- COMMAND, --config); nothing else of
// the proxy's options applies here, so anything else is refused.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { resolveCli } from '../config/resolve.js';
import type { UpstreamConfig } from '../config/types.js';
import { ConfigError } from '../protocol/errors.js';
import { join } from 'node:path';
import { readAuditFiles, type SkippedLine } from '../report/audit-files.js';
import { matchAuditUpstreams } from '../report/audit-upstreams.js';
import { handlerFlows } from '../report/handler-flow.js';
import { rootsReading, type RootsReading, unknownRootsTools } from '../report/roots-readers.js';
import { commentText } from '../report/quote.js';
import { pythonServer } from '../report/server-py.js';
import { typescriptServer } from '../report/server-ts.js';
import { writeGenerated } from '../report/write-handlers.js';
import { inspectUpstream } from '../report/inspect.js';
import { buildReport, type Declared, type ReportModel } from '../report/model.js';
import { renderHtml } from '../report/render-html.js';
import { renderMarkdown } from '../report/render-md.js';
import { systemClock } from '../clock.js';
import { createLogger, type LogFormat, stderrStyle } from '../telemetry/logger.js';

export const REPORT_HELP = `Usage: mrtr-proxy report [--audit FILE...] (--upstream URL | -- COMMAND [ARGS...] | --config FILE)
                         [--format md|html|json] [--out FILE] [--handlers DIR --lang ts|py]
                         [--roots-tools NAME[,NAME...]]

Lists what the legacy server declares (tools with their annotations, prompts, resources) and joins
it with what --audit files recorded: per item whether and what it asks, how often, in how many
rounds, and what a 2026-07-28 version needs (inputRequests keys and schemas, replay safety,
annotations). --audit may be repeated (e.g. FILE and its rotated FILE.1). Default format md, to
stdout.

--handlers DIR --lang ts|py writes the migrated 2026-07-28 server instead (the report then goes
only to --out): for every tool, prompt and resource the audit saw ask, a handler for the official
SDK that asks what the legacy one asked, round by round, and ends in a finish() you write (ts:
@modelcontextprotocol/server 2.x, py: mcp 2.x); the other tools listed as not migrated;
package.json or pyproject.toml and an entry point. Audit with --audit-questions for the
questions' text. finish files that exist are never replaced. With several upstreams (--config)
each gets DIR/UPSTREAM.

A server that asks for the roots outside calls (at initialize) is asked nothing in the calls of
the tools that read them: a tool whose audited results named the caller's roots is judged to read
them, and its handler asks for the roots in its first round. --roots-tools NAME[,NAME...] (may be
repeated) names more tools that read them; each must be an audited tool.
`;

const FORMATS = { md: renderMarkdown, html: renderHtml, json: (m: ReportModel) => `${JSON.stringify(m, null, 2)}\n` } as const;

/** Languages --handlers writes. */
const LANGS = ['ts', 'py'] as const;
type Lang = (typeof LANGS)[number];

type Parsed =
  | { help: true }
  | {
      help: false;
      audits: string[];
      format: keyof typeof FORMATS;
      out?: string;
      target: string[];
      /** The servers are named by a configuration file (as the proxy names them), not by one URL or command. */
      configFile: boolean;
      handlers?: { dir: string; lang: Lang };
      /** Tools the author says read the roots (--roots-tools), beside those the audit shows. */
      rootsTools: string[];
    };

/** Every option of `mrtr-proxy report` (test/e2e/cli.test.ts: each is in report --help and docs/migration.md). */
export const REPORT_OPTIONS = {
  audit: { type: 'string', multiple: true },
  format: { type: 'string' },
  out: { type: 'string' },
  upstream: { type: 'string' },
  config: { type: 'string' },
  handlers: { type: 'string' },
  lang: { type: 'string' },
  'roots-tools': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseOwn(own: readonly string[]) {
  return parseArgs({
    args: [...own],
    options: REPORT_OPTIONS,
    strict: true,
    allowPositionals: false,
  });
}

export function parseReportArgs(argv: readonly string[]): Parsed {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash);
  let values: ReturnType<typeof parseOwn>['values'];
  try {
    ({ values } = parseOwn(own));
  } catch (err) {
    throw new ConfigError(`report: ${(err as Error).message}`);
  }
  if (values.help) return { help: true };
  const format = values.format ?? 'md';
  if (!(format in FORMATS)) throw new ConfigError(`report: --format: expected md, html or json, got '${format}'`);
  if (values.lang !== undefined && values.handlers === undefined) throw new ConfigError('report: --lang needs --handlers DIR');
  if (values.handlers !== undefined && values.lang === undefined) throw new ConfigError(`report: --handlers needs --lang (${LANGS.join(' or ')})`);
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang))
    throw new ConfigError(`report: --lang: expected ${LANGS.join(' or ')}, got '${values.lang}'`);
  if (values.handlers === '') throw new ConfigError('report: --handlers: empty directory name');
  const rootsTools = (values['roots-tools'] ?? []).flatMap((v) => v.split(',')).map((n) => n.trim());
  if (rootsTools.includes('')) throw new ConfigError('report: --roots-tools: an empty tool name (expected NAME[,NAME...])');
  const target = [
    ...(values.upstream === undefined ? [] : ['--upstream', values.upstream]),
    ...(values.config === undefined ? [] : ['--config', values.config]),
    ...command,
  ];
  if (target.length === 0) throw new ConfigError('report: name the server: --upstream URL, -- COMMAND [ARGS...] or --config FILE');
  return {
    help: false,
    audits: values.audit ?? [],
    format: format as keyof typeof FORMATS,
    ...(values.out === undefined ? {} : { out: values.out }),
    target,
    configFile: values.config !== undefined,
    ...(values.handlers === undefined ? {} : { handlers: { dir: values.handlers, lang: values.lang as Lang } }),
    rootsTools: [...new Set(rootsTools)],
  };
}

/** Runs the report; resolves with the process exit code. */
export async function runReport(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  let parsed: Parsed;
  let upstreams: UpstreamConfig[];
  let logFormat: LogFormat | undefined;
  try {
    parsed = parseReportArgs(argv);
    if (parsed.help) {
      process.stdout.write(REPORT_HELP);
      return 0;
    }
    const resolved = resolveCli(parsed.target, env);
    if (resolved.action !== 'run') throw new ConfigError('report: unexpected --help or --version');
    upstreams = resolved.config.upstreams;
    logFormat = resolved.config.logFormat;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`mrtr-proxy: ${err.message}\nRun 'mrtr-proxy report --help' for usage.\n`);
    return 2;
  }
  const log = createLogger('warn', [], stderrStyle(logFormat, env));
  let audit: Awaited<ReturnType<typeof readAuditFiles>>;
  try {
    audit = await readAuditFiles(parsed.audits);
  } catch (err) {
    process.stderr.write(`mrtr-proxy: report: cannot read the audit: ${(err as Error).message}\n`);
    return 1;
  }
  for (const line of skippedLines(audit.invalid)) process.stderr.write(`mrtr-proxy: report: ${line}\n`);
  // Only the audit knows the tools, so this is checked once it is read.
  const unknownRoots = unknownRootsTools(audit.records, parsed.rootsTools);
  if (unknownRoots !== undefined) {
    process.stderr.write(`mrtr-proxy: report: ${unknownRoots}\nRun 'mrtr-proxy report --help' for usage.\n`);
    return 2;
  }
  const declared: Declared[] = [];
  for (const u of upstreams) declared.push(await inspectUpstream(u, log.child({ upstream: u.name }), systemClock));
  for (const d of declared) if (d.error) log.warn(`upstream ${d.upstream}: ${d.error}`);
  const match = matchAuditUpstreams(
    declared.map((d) => d.upstream),
    [...audit.records, ...audit.shadow].map((r) => r.upstream),
    !parsed.configFile,
  );
  for (const note of match.notes) log.warn(note);
  const renamed = <R extends { upstream: string }>(r: R): R => ({ ...r, upstream: match.rename.get(r.upstream) ?? r.upstream });
  const records = audit.records.map(renamed);
  const model = buildReport(
    declared,
    records,
    { files: parsed.audits, skippedLines: audit.skipped },
    new Date(systemClock.now()),
    audit.shadow.map(renamed),
    parsed.rootsTools,
  );
  const text = FORMATS[parsed.format](model);
  if (parsed.out !== undefined) await writeFile(parsed.out, text);
  else if (!parsed.handlers) process.stdout.write(text);
  if (parsed.handlers) await writeServers(parsed.handlers.dir, parsed.handlers.lang, declared, records, rootsReading(records, parsed.rootsTools));
  return 0;
}

/** Lines named on stderr before the rest are counted: an edited audit may hold many. */
const NAMED_SKIPS = 20;

/** What stderr says of the audit lines the report did not read: each by file and line, and why. */
export function skippedLines(invalid: readonly SkippedLine[]): string[] {
  const named = invalid.slice(0, NAMED_SKIPS).map((s) => `skipped ${s.file}:${s.line}: ${commentText(s.why)}`);
  return invalid.length > NAMED_SKIPS ? [...named, `skipped ${invalid.length - NAMED_SKIPS} more line(s)`] : named;
}

/** One migrated server per upstream (DIR itself for one upstream); what was written goes to stdout. */
async function writeServers(
  dir: string,
  lang: Lang,
  declared: readonly Declared[],
  records: Parameters<typeof handlerFlows>[0],
  roots: readonly RootsReading[],
): Promise<void> {
  const flows = handlerFlows(records, roots, declared);
  for (const d of declared) {
    const mine = flows.filter((f) => f.upstream === d.upstream);
    const where = declared.length === 1 ? dir : join(dir, d.upstream);
    const { written, kept } = await writeGenerated(where, (lang === 'py' ? pythonServer : typescriptServer)(d.upstream, d, mine));
    process.stdout.write(`${d.upstream}: ${mine.length} migrated handler(s) in ${where}\n`);
    for (const f of mine)
      if (!f.questionsAudited)
        process.stdout.write(`  ${f.kind} ${commentText(f.name)}: audited without --audit-questions, its questions' text is a placeholder\n`);
    for (const f of mine)
      if (f.rootsFirst !== undefined) process.stdout.write(`  ${f.kind} ${commentText(f.name)}: asks for the roots first (${f.rootsFirst})\n`);
    for (const p of written) process.stdout.write(`  wrote ${p}\n`);
    for (const p of kept) process.stdout.write(`  kept ${p} (yours)\n`);
  }
}
