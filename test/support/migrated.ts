// A legacy server taken through the migration path for tests: audited with --audit-questions
// through the proxy, its 2026-07-28 server generated (`report --handlers`), each finish filled by
// a stub, built with the repository's TypeScript (strict) and started on a free loopback port.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShadowRecord } from '../../src/audit/shadow-record.js';
import { writeConfig } from './config.js';
import { scrape } from './metrics.js';
import { freePort } from './ports.js';
import { PROXY_BIN, ROOT, startProcess, startProxy, type Running } from './processes.js';
import { connectClient } from './client.js';
import { COMPARISONS } from './shadow.js';
import { until } from './wait.js';

export const STUB_TEXT = 'stub finish';
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;
const STATE_KEY = 'a-test-key-for-the-migrated-server-0123456789';

/** Audits `drive(proxyUrl)` against `server` (argv after `--`); returns the audit file. */
export async function auditWithQuestions(server: string[], drive: (url: string) => Promise<void>, extra: string[] = []): Promise<string> {
  const audit = join(mkdtempSync(join(tmpdir(), 'migrate-audit-')), 'audit.jsonl');
  const proxy = await startProxy(['--audit', audit, '--audit-questions', ...extra, '--', ...server]);
  try {
    await drive(proxy.url);
  } finally {
    await proxy.stop();
  }
  return audit;
}

/** `mrtr-proxy report --handlers DIR --lang LANG`; returns DIR and what the command printed. */
export function generate(audit: string, server: string[], lang = 'ts', into?: string): { dir: string; stdout: string; stderr: string } {
  const dir = into ?? mkdtempSync(join(tmpdir(), `migrated-${lang}-`));
  const r = spawnSync(process.execPath, [PROXY_BIN, 'report', '--audit', audit, '--handlers', dir, '--lang', lang, '--', ...server], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`report --handlers failed (${r.status}): ${r.stderr}`);
  return { dir, stdout: r.stdout, stderr: r.stderr };
}

// A templated resource's stub names the variables it was handed (`stub finish id=7`), so a test
// can tell that the read callback passed them on.
const TS_VARIABLES = "Object.entries(args.variables).map(([k, v]) => k + '=' + String(v)).join(' ')";
const PY_VARIABLES = '" ".join(f"{k}={v}" for k, v in sorted(args["variables"].items()))';

/**
 * The test's finish: a fixed result, so that every shadow comparison differs in its content and
 * is recorded with its rounds; branch points the audit cannot explain go by the `ask` argument.
 */
export function fillTypescriptStubs(dir: string): void {
  for (const folder of ['tools', 'prompts', 'resources']) {
    let names: string[];
    try {
      names = readdirSync(join(dir, 'src', folder));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('.finish.ts'))) {
      const path = join(dir, 'src', folder, name);
      const original = readFileSync(path, 'utf8');
      const templated = original.includes('variables: Variables');
      const text = original
        .replace(/ {2}return \{ content: \[\{ type: 'text', text: .*\}\], isError: true \};/, `  return { content: [{ type: 'text', text: '${STUB_TEXT}' }] };`)
        .replace(
          / {2}throw new Error\(.*\);/,
          folder === 'prompts'
            ? `  return { messages: [{ role: 'user', content: { type: 'text', text: '${STUB_TEXT}' } }] };`
            : templated
              ? `  return { contents: [{ uri: args.uri, text: ${JSON.stringify(`${STUB_TEXT} `)} + ${TS_VARIABLES} }] };`
              : `  return { contents: [{ uri: args.uri, text: '${STUB_TEXT}' }] };`,
        )
        .replace(/ {2}return 0;\n\}/, "  return args['ask'] === false ? options.indexOf('finish') : options.findIndex((o) => o !== 'finish');\n}");
      writeFileSync(path, text);
    }
  }
}

/** tsc -p DIR (the generated tsconfig: strict), against this repository's node_modules. */
export function buildTypescript(dir: string): void {
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  try {
    execFileSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`tsc failed on the generated server:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

export async function startTypescript(dir: string): Promise<Running & { url: string }> {
  const p = await startProcess(process.execPath, [join(dir, 'dist', 'server.js')], /listening on (http:\/\/\S+)/, {
    env: { PORT: '0', MRTR_STATE_KEY: STATE_KEY },
  });
  return { ...p, url: p.ready };
}

/**
 * Serves `drive` from the legacy `server` with the migrated one at `candidateUrl` as its shadow
 * (`tools` and `methods` compared), waits for `expected` comparisons and returns the audit's
 * shadow records (every comparison differs, as the stub's content differs from the legacy one).
 */
export async function shadowAgainst(
  server: string[],
  candidateUrl: string,
  shadow: { tools: string[]; methods: string[] },
  expected: number,
  drive: (url: string) => Promise<void>,
  extra: string[] = [],
): Promise<{ records: ShadowRecord[]; counts: Record<string, number> }> {
  const audit = join(mkdtempSync(join(tmpdir(), 'migrate-shadow-')), 'audit.jsonl');
  const [command, ...args] = server;
  const config = writeConfig(`
audit: {file: ${JSON.stringify(audit)}}
default: legacy
upstreams:
  legacy:
    stdio: {command: ${JSON.stringify(command)}, args: ${JSON.stringify(args)}}
    shadow: {upstream: migrated, tools: ${JSON.stringify(shadow.tools)}, methods: ${JSON.stringify(shadow.methods)}, maxConcurrent: 64}
  migrated:
    era: modern
    http: {url: ${JSON.stringify(candidateUrl)}}
`);
  const proxy = await startProxy(['--config', config, ...extra]);
  const metrics = proxy.url.replace(/\/mcp$/, '/metrics');
  const counts: Record<string, number> = {};
  try {
    await drive(proxy.url);
    const count = async () => {
      const s = await scrape(metrics);
      for (const outcome of ['match', 'differ', 'candidate_error', 'skipped'])
        counts[outcome] = s.samples.filter((x) => x.name === COMPARISONS && x.labels['outcome'] === outcome).reduce((a, x) => a + x.value, 0);
      return (counts['match'] ?? 0) + (counts['differ'] ?? 0) + (counts['candidate_error'] ?? 0) >= expected;
    };
    await until(count, 20_000, `${expected} shadow comparisons`).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(counts)}\n${readFileSync(audit, 'utf8')}`);
    });
  } finally {
    await proxy.stop();
  }
  // Comparisons that matched write nothing: no file when every one did.
  const records = (existsSync(audit) ? readFileSync(audit, 'utf8') : '')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r): r is ShadowRecord & Record<string, unknown> => r['kind'] === 'shadow');
  return { records, counts };
}

/** What a shadow record says of the question flow: rounds on both sides and any question that differed. */
export function questionFlow(r: ShadowRecord): { target: string; rounds: string; questions: string[]; error?: string } {
  return {
    target: r.target,
    rounds: `${r.primaryRounds}/${r.candidateRounds}`,
    questions: r.differences.filter((d) => d.path.startsWith('inputRequests')).map((d) => `${d.kind} ${JSON.stringify(d.question)}`),
    ...(r.error ? { error: r.error } : {}),
  };
}

/** The Python finish stubs: the same fixed results and branch choice as the TypeScript ones. */
export function fillPythonStubs(dir: string): void {
  for (const folder of ['tools', 'prompts', 'resources']) {
    let names: string[];
    try {
      names = readdirSync(join(dir, 'handlers', folder));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('_finish.py'))) {
      const path = join(dir, 'handlers', folder, name);
      const original = readFileSync(path, 'utf8');
      const templated = original.includes('args["variables"]');
      const text = original
        .replace(
          / {4}return CallToolResult\.model_validate\(.*\)\n/,
          `    return CallToolResult.model_validate({"content": [{"type": "text", "text": "${STUB_TEXT}"}]})\n`,
        )
        .replace(/ {4}raise NotImplementedError\(.*\)\n/, templated ? `    return "${STUB_TEXT} " + ${PY_VARIABLES}\n` : `    return "${STUB_TEXT}"\n`)
        .replace(
          / {4}return 0\n/,
          '    return options.index("finish") if args.get("ask") is False else next(i for i, o in enumerate(options) if o != "finish")\n',
        );
      writeFileSync(path, text);
    }
  }
}

/** py_compile every module, then import the entry point and build the server (mcp 2.3.0). */
export function checkPython(python: string, dir: string): void {
  const modules = ['server.py', 'mrtr.py'];
  for (const folder of ['tools', 'prompts', 'resources']) {
    try {
      modules.push(
        ...readdirSync(join(dir, 'handlers', folder))
          .filter((n) => n.endsWith('.py'))
          .map((n) => join('handlers', folder, n)),
      );
    } catch {
      // No handler of that kind.
    }
  }
  const run = (args: string[]) => {
    try {
      execFileSync(python, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, MRTR_STATE_KEY: STATE_KEY } });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`python ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  };
  run(['-m', 'py_compile', ...modules]);
  run(['-c', 'import server; server.build()']);
}

export async function startPython(python: string, dir: string): Promise<Running & { url: string }> {
  const port = await freePort();
  const p = await startProcess(python, [join(dir, 'server.py')], /Uvicorn running on/, {
    cwd: dir,
    env: { PORT: String(port), MRTR_STATE_KEY: STATE_KEY },
    timeoutMs: 30_000,
  });
  return { ...p, url: `http://127.0.0.1:${port}/mcp` };
}

/** One tools/list through the proxy. */
export async function listTools(url: string): Promise<void> {
  const client = await connectClient(url);
  try {
    await client.listTools();
  } finally {
    await client.close();
  }
}

/** The differences a shadow tools/list found between the legacy server and the migrated one at `candidateUrl`. */
export async function toolsListDifferences(server: string[], candidateUrl: string): Promise<string[]> {
  const { records, counts } = await shadowAgainst(server, candidateUrl, { tools: [], methods: ['tools/list'] }, 1, listTools);
  if (counts['candidate_error']) throw new Error(`the migrated server failed tools/list: ${JSON.stringify(records)}`);
  return records.flatMap((r) => r.differences.map((d) => `${d.kind} ${d.path}`));
}
