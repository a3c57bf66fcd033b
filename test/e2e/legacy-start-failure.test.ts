// A legacy command that does not exist, or that dies as it starts, stops the proxy with the cause
// in every way the proxy is started: the HTTP front, --stdio, a configuration file, the library.
// The cause is ENOENT, or the server's last stderr lines however fast it died (the command line
// prestarts the child before the proxy has loaded, so it is often gone before anyone reads it),
// and for a server that exited by itself, what environment a child gets and how to give it more.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxy, StartError } from '../../src/index.js';
import { PROXY_BIN } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'mrtr-start-failure-'));
const crashing = join(dir, 'crash.js');
writeFileSync(crashing, "console.error('BOOM: missing DATABASE_URL');\nprocess.exit(1);\n");
const missing = join(dir, 'no-such-command');

const ENOENT = /the legacy server exited with code -2 \(spawn [^ ]*no-such-command ENOENT\)|spawn [^ ]*no-such-command ENOENT/;
const LAST_LINES = /the legacy server exited with code 1; its last stderr lines: BOOM: missing DATABASE_URL/;
// A server that exits as it starts may lack a variable: the proxy says what a child gets and how to give it more.
const MINIMAL_ENV =
  /a stdio server gets only HOME, LOGNAME, PATH, SHELL, TERM, USER of the proxy's environment: if it needs another variable, pass it with --env NAME \(or NAME=VALUE\), `env:` on the upstream in the configuration file, or --pass-environment/;

function proxy(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [PROXY_BIN, ...args], { encoding: 'utf8', timeout: 20_000, input: '' });
  return { status: r.status, stderr: r.stderr };
}

function configFile(command: string, args: string[]): string {
  const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `listen: { host: 127.0.0.1, port: 0 }\nupstreams:\n  tickets:\n    stdio: { command: ${JSON.stringify(command)}, args: ${JSON.stringify(args)} }\n`,
  );
  return file;
}

const modes: Array<[string, (command: string, args: string[]) => string[]]> = [
  ['the HTTP front', (command, args) => ['--port', '0', '--', command, ...args]],
  ['--stdio', (command, args) => ['--stdio', '--', command, ...args]],
  ['a configuration file', (command, args) => ['--config', configFile(command, args)]],
];

describe('a legacy command that cannot start', () => {
  for (const [mode, argv] of modes) {
    it(`exits 1 naming ENOENT when the command does not exist (${mode})`, () => {
      const r = proxy(argv(missing, []));
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, ENOENT);
      assert.doesNotMatch(r.stderr, MINIMAL_ENV, 'a command that never ran lacks no variable');
    });

    it(`exits 1 quoting the last stderr lines of a server that dies at once, every time (${mode})`, () => {
      for (let run = 1; run <= 3; run++) {
        const r = proxy(argv(process.execPath, [crashing]));
        assert.equal(r.status, 1, `run ${run}: ${r.stderr}`);
        assert.match(r.stderr, LAST_LINES, `run ${run}`);
        assert.match(r.stderr, MINIMAL_ENV, `run ${run}`);
      }
    });
  }

  it('rejects createProxy with a StartError naming ENOENT, and one quoting the last stderr lines', async () => {
    const start = (command: string, args: string[]) =>
      createProxy({ listen: { host: '127.0.0.1', port: 0 }, logLevel: 'error', upstreams: { tickets: { stdio: { command, args } } } }, { env: {} });
    await assert.rejects(start(missing, []), (err: Error) => err instanceof StartError && ENOENT.test(err.message));
    await assert.rejects(
      start(process.execPath, [crashing]),
      (err: Error) => err instanceof StartError && LAST_LINES.test(err.message) && MINIMAL_ENV.test(err.message),
    );
  });
});
