// `npm start` in a terminal: examples/start-demo.mjs under a pseudo-terminal (util-linux `script`),
// as a person runs it. The proxy's lines are short and readable (time, colored level, message),
// a start says one thing at info, the guide follows, and Ctrl-C stops everything. The piped case
// (JSON lines) is test/e2e/demo.test.ts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alive, descendants } from '../support/process-tree.js';
import { until } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const skip = skipOrFail(
  'test/e2e/demo-terminal.test.ts',
  spawnSync('script', ['--version'], { encoding: 'utf8' }).status !== 0 && 'util-linux `script` is not installed: no pseudo-terminal to run npm start in',
);

/** winston's color for info (green), around the level only. */
const GREEN_INFO = '\u001b[32minfo\u001b[39m';

let terminal: ChildProcess | undefined;
const seen = new Set<number>();
after(() => {
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

test('npm start in a terminal: readable log lines, one at info, then the guide; Ctrl-C stops it', { skip, timeout: 30_000 }, async () => {
  // What `npm start` runs after building; the terminal is script's, its output our pipe. A person's
  // terminal: without CI (Node and winston's colors both turn color off where CI is set, as on CI).
  terminal = spawn('script', ['-qfec', `${process.execPath} examples/start-demo.mjs`, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', TERM: 'xterm-256color', CI: undefined, MRTR_LOG_FORMAT: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  terminal.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
  });
  const exited = new Promise<number | null>((resolve) => terminal!.once('exit', (code) => resolve(code)));
  await until(() => out.includes('Ctrl-C stops'), 15_000, 'the guide');
  for (const p of descendants(terminal.pid!)) seen.add(p.pid);

  const lines = out.split(/\r?\n/);
  const guideAt = lines.findIndex((l) => l.includes('mrtr-proxy demo is running'));
  const logged = lines.slice(0, guideAt).filter((l) => /^\d{2}:\d{2}:\d{2}\.\d{3} /.test(l));
  assert.ok(!out.includes('{"level"'), `no JSON line in a terminal:\n${out}`);
  const info = logged.filter((l) => l.includes(GREEN_INFO));
  assert.equal(info.length, 1, `one info line at start:\n${logged.join('\n')}`);
  assert.match(
    info[0]!.replace(GREEN_INFO, 'INFO'),
    /^\S+ INFO {2}listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) in front of node demo-server\.js over stdio url=\1 /,
  );
  assert.ok(
    lines.slice(guideAt).some((l) => /Endpoint:\s+http:\/\/127\.0\.0\.1:\d+\/mcp/.test(l)),
    out,
  );

  // Ctrl-C reaches start-demo, which passes it on to the proxy; everything ends.
  terminal.stdin!.write('\u0003');
  const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 8000))]);
  assert.notEqual(code, 'late', `still running 8 s after Ctrl-C:\n${out.slice(-2000)}`);
  await until(() => [...seen].every((pid) => !alive(pid)), 5000, 'the proxy and the demo server to be gone');
  assert.ok(out.includes(`${GREEN_INFO}  shutting down signal=SIGINT`), out.slice(-2000));
});
