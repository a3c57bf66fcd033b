// A legacy server taken through the migration path for tests: audited with --audit-questions
// through the proxy, its 2026-07-28 server generated (`report --handlers`), each finish filled by
// a stub, built with the repository's TypeScript (strict) and started on a free loopback port.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROXY_BIN, ROOT, startProcess, startProxy, type Running } from './processes.js';

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
export function generate(audit: string, server: string[], lang = 'ts', into?: string): { dir: string; stdout: string } {
  const dir = into ?? mkdtempSync(join(tmpdir(), `migrated-${lang}-`));
  const r = spawnSync(process.execPath, [PROXY_BIN, 'report', '--audit', audit, '--handlers', dir, '--lang', lang, '--', ...server], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`report --handlers failed (${r.status}): ${r.stderr}`);
  return { dir, stdout: r.stdout };
}

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
      const text = readFileSync(path, 'utf8')
        .replace(/ {2}return \{ content: \[\{ type: 'text', text: .*\}\], isError: true \};/, `  return { content: [{ type: 'text', text: '${STUB_TEXT}' }] };`)
        .replace(
          / {2}throw new Error\(.*\);/,
          folder === 'prompts'
            ? `  return { messages: [{ role: 'user', content: { type: 'text', text: '${STUB_TEXT}' } }] };`
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
