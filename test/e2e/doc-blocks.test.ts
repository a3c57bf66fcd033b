// The docs' runnable blocks (marked `<!-- runnable: ... -->`, see support/doc-blocks.ts) run as a
// reader runs them: in bash, from a directory that looks like the checkout (bin, dist, config,
// examples, node_modules linked in) so the docs' relative paths hold, servers left running while
// the next block runs. Only the ports change: each port a scenario names (8080, 6379, ...) becomes
// a free loopback port, so a test never takes a fixed one. A scenario that needs a program the
// machine lacks (nginx, redis-server, curl) is skipped with a SKIPPED line.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type DocBlock, runnableBlocks } from '../support/doc-blocks.js';
import { findBinary, freePort } from '../support/ports.js';
import { ROOT } from '../support/processes.js';
import { until } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
/** The ports the docs use; anything else in a block is left alone. */
const DOC_PORTS = ['8080', '8081', '8082', '8083', '6379'];
const PROGRAMS = ['nginx', 'redis-server', 'curl'];
const PATH = `${process.env['PATH'] ?? ''}:/usr/sbin:/usr/local/sbin`;
const running = new Set<ChildProcess>();

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

after(() => {
  for (const c of running) stopGroup(c, 'SIGKILL');
});

/** A directory that looks like the checkout to the docs' relative paths, for the scenario's own files. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-doc-'));
  for (const entry of ['bin', 'dist', 'config', 'examples', 'node_modules', 'package.json']) symlinkSync(join(ROOT, entry), join(dir, entry));
  return dir;
}

/** Every doc port of the scenario's blocks, mapped to a free one. */
async function portMap(blocks: readonly DocBlock[]): Promise<Map<string, string>> {
  const used = new Set(blocks.flatMap((b) => [...b.text.matchAll(/(?<![\d.])(\d{4})(?!\d)/g)].map((m) => m[1]!)).filter((p) => DOC_PORTS.includes(p)));
  const map = new Map<string, string>();
  for (const p of used) map.set(p, String(await freePort()));
  return map;
}

function withPorts(text: string, ports: Map<string, string>): string {
  return text.replace(/(?<![\d.])(\d{4})(?!\d)/g, (p) => ports.get(p) ?? p);
}

function bash(script: string, cwd: string): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  // A process group of its own: what the block starts in the background ends with it.
  const child = spawn('bash', ['-c', script], { cwd, detached: true, env: { ...process.env, PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

async function runScenario(blocks: readonly DocBlock[]): Promise<void> {
  const dir = workspace();
  const ports = await portMap(blocks);
  const servers: ReturnType<typeof bash>[] = [];
  const preludes: string[] = [];
  try {
    for (const b of blocks) if (b.role.kind === 'file') writeFile(join(dir, b.role.path), withPorts(b.text, ports));
    for (const b of blocks) {
      const text = withPorts(b.text, ports);
      switch (b.role.kind) {
        case 'file':
          break;
        case 'prelude':
          preludes.push(text);
          break;
        case 'start': {
          const server = bash(text, dir);
          servers.push(server);
          const { ready, times } = b.role;
          const seen = () => server.output().split(ready).length - 1;
          await until(() => seen() >= times, 60_000, `${b.at}: "${ready}" ${times}× in the output`).catch((err: Error) =>
            assert.fail(`${err.message}\n${server.output().slice(-3000)}`),
          );
          break;
        }
        case 'expect': {
          const run = bash([...preludes, text].join('\n'), dir);
          let timer: NodeJS.Timeout | undefined;
          const code = await Promise.race([run.exit, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 90_000)))]);
          clearTimeout(timer);
          const servers_ = servers.map((s) => s.output().slice(-1500)).join('\n---\n');
          assert.equal(code, 0, `${b.at}: exited ${code}\n${run.output()}\nservers:\n${servers_}`);
          assert.ok(run.output().includes(b.role.text), `${b.at}: no "${b.role.text}" in:\n${run.output()}\nservers:\n${servers_}`);
          break;
        }
      }
    }
  } finally {
    for (const s of servers) stopGroup(s.child, 'SIGTERM');
    await Promise.race([Promise.all(servers.map((s) => s.exit)), new Promise((r) => setTimeout(r, 10_000))]);
    for (const s of servers) stopGroup(s.child, 'SIGKILL');
  }
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const scenarios = DOCS.flatMap((file) => [...runnableBlocks(file, readFileSync(join(ROOT, file), 'utf8'))].map(([name, blocks]) => ({ file, name, blocks })));

describe('runnable blocks of docs/', () => {
  it('marks the examples that must keep working', () => {
    assert.deepEqual(scenarios.map((s) => `${s.file} ${s.name}`).sort(), [
      'docs/operations.md two-instances',
      'docs/tasks.md hosted-task',
      'docs/tasks.md translated-task',
    ]);
  });

  for (const { file, name, blocks } of scenarios) {
    const missing = PROGRAMS.filter((p) => blocks.some((b) => new RegExp(`(^|[\\s;|&(])${p}\\s`, 'm').test(b.text)) && !findBinary(p));
    const skip = skipOrFail(`test/e2e/doc-blocks.test.ts ${file} ${name}`, missing.length > 0 && `${missing.join(', ')} not installed`);
    it(`${file}: ${name} runs as written`, { skip }, () => runScenario(blocks));
  }
});
