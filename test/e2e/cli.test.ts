// The command line as users and scripts meet it: help, exit codes, and precise errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProxy, StartError } from '../../src/index.js';
import { REPORT_OPTIONS } from '../../src/cli/report.js';
import { STATE_KEY_ENV } from '../../src/config/child-env.js';
import { INTROSPECTION_CLIENT_ID_ENV, INTROSPECTION_CLIENT_SECRET_ENV } from '../../src/config/http-front.js';
import { LOG_FORMAT_ENV } from '../../src/config/logging.js';
import { PROXY_OPTIONS } from '../../src/config/resolve-argv.js';
import { FIXTURE, PROXY_BIN, ROOT, startProcess, startProxy } from '../support/processes.js';
import { until } from '../support/wait.js';

/** s as a regular expression that matches it literally. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rows of the README's option table (under `## Options`). */
/** The rows of the full option table, in docs/configuration.md (the README keeps a few). */
function optionRows(doc: string): string[] {
  const start = doc.indexOf('\n## Command-line options\n');
  assert.ok(start >= 0, 'docs/configuration.md has its Command-line options section');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return section.split('\n').filter((l) => l.startsWith('| `'));
}

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [PROXY_BIN, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });

/** A configuration file listening on `port` in front of `server`. */
function portConfig(dir: string, port: string, server: string): string {
  const file = join(dir, 'proxy.yaml');
  writeFileSync(
    file,
    `listen: { host: 127.0.0.1, port: ${port} }\nupstreams:\n  m:\n    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(server)}] }\n`,
  );
  return file;
}

describe('command line', () => {
  // The options come from the parsers' own tables, so an option added there and documented nowhere fails here.
  it('documents every option of the proxy in --help and the option table of docs/configuration.md, and every variable it reads', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    const rows = optionRows(readFileSync(`${ROOT}docs/configuration.md`, 'utf8'));
    const missing: string[] = [];
    for (const [name, spec] of Object.entries(PROXY_OPTIONS)) {
      const flag = `--${name}`;
      const synopsis = 'short' in spec ? `-${spec.short}, ${flag}` : flag;
      if (!new RegExp(`^  ${literal(synopsis)}( |$)`, 'm').test(r.stdout)) missing.push(`--help has no row for ${flag}`);
      if (!rows.some((row) => new RegExp(`\`${literal(flag)}[ \`]`).test(row.split(' | ')[0]!)))
        missing.push(`the option table of docs/configuration.md has no row for ${flag}`);
    }
    for (const variable of [STATE_KEY_ENV, LOG_FORMAT_ENV, INTROSPECTION_CLIENT_ID_ENV, INTROSPECTION_CLIENT_SECRET_ENV]) {
      if (!r.stdout.includes(variable)) missing.push(`--help does not name ${variable}`);
      if (!rows.some((row) => row.includes(variable))) missing.push(`the option table of docs/configuration.md does not name ${variable}`);
    }
    assert.deepEqual(missing, []);
    assert.ok(Object.keys(PROXY_OPTIONS).length > 40 && rows.length > 40, 'the options and the table rows were found');
  });

  it('documents every option of report in report --help and docs/migration.md', () => {
    const r = run(['report', '--help']);
    assert.equal(r.status, 0);
    const migration = readFileSync(`${ROOT}docs/migration.md`, 'utf8');
    const missing: string[] = [];
    // --help is how one reads the rest.
    for (const flag of Object.keys(REPORT_OPTIONS)
      .filter((n) => n !== 'help')
      .map((n) => `--${n}`)) {
      const mentioned = new RegExp(`${literal(flag)}\\b(?!-)`);
      if (!mentioned.test(r.stdout)) missing.push(`report --help does not name ${flag}`);
      if (!mentioned.test(migration)) missing.push(`docs/migration.md does not name ${flag}`);
    }
    assert.deepEqual(missing, []);
  });

  it('prints the version', () => {
    const r = run(['--version']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  const usage: Array<[string, string[], RegExp]> = [
    ['an unknown option', ['--frobnicate', '--upstream', 'http://127.0.0.1:1/mcp'], /unknown option '--frobnicate'\n/],
    ['no legacy server', [], /no legacy server: give --upstream URL, -- COMMAND \[ARGS...\] or --config FILE/],
    ['both kinds of legacy server', ['--upstream', 'http://127.0.0.1:1/mcp', '--', 'node', 'x.js'], /either --upstream URL or -- COMMAND/],
    ['a negative port', ['--port', '-1', '--upstream', 'http://127.0.0.1:1/mcp'], /--port: -1 is out of range \(0 to 65535\)/],
    ['a negative port written with =', ['--port=-1', '--upstream', 'http://127.0.0.1:1/mcp'], /--port: -1 is out of range \(0 to 65535\)/],
    ['a negative limit', ['--max-sessions', '-3', '--upstream', 'http://127.0.0.1:1/mcp'], /--max-sessions: -3 is out of range \(1 to 100000\)/],
    ['a bad port', ['--port', 'eighty', '--upstream', 'http://127.0.0.1:1/mcp'], /--port: expected a whole number/],
    ['an out-of-range TTL', ['--interaction-ttl', '0', '--upstream', 'http://127.0.0.1:1/mcp'], /--interaction-ttl: 0 is out of range/],
    ['a non-http upstream', ['--upstream', 'ftp://example.com/x'], /only http, https, ws and wss/],
    [
      'a short state key',
      ['--state-key', 'c2hvcnQ', '--upstream', 'http://127.0.0.1:1/mcp'],
      /it decodes to 5 bytes, not 32; expected 32 random bytes in base64url/,
    ],
    ['a bad --legacy-clients mode', ['--legacy-clients', 'maybe', '--upstream', 'http://127.0.0.1:1/mcp'], /--legacy-clients: expected pass or reject/],
    ['--stdio with --port', ['--stdio', '--port', '1', '--upstream', 'http://127.0.0.1:1/mcp'], /--stdio serves on stdin\/stdout/],
    ['a bad log level', ['--log-level', 'loud', '--upstream', 'http://127.0.0.1:1/mcp'], /--log-level: expected one of/],
    ['a bad log format', ['--log-format', 'xml', '--upstream', 'http://127.0.0.1:1/mcp'], /--log-format: expected json or pretty, got 'xml'/],
    ['a root that is not a file URI', ['--root', 'http://x', '--upstream', 'http://127.0.0.1:1/mcp'], /--root: 'http:\/\/x' must be a file:\/\/ URI/],
  ];
  for (const [what, args, message] of usage) {
    it(`rejects ${what} with exit code 2`, () => {
      const r = run(args);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /mrtr-proxy --help/);
      // Node's parser advice is wrong here: after -- comes the legacy server's command.
      assert.doesNotMatch(r.stderr, /place it at the end|ambiguous/);
    });
  }

  it('never echoes a rejected state key', () => {
    const key = Buffer.alloc(31, 3).toString('base64url');
    const r = run(['--upstream', 'http://127.0.0.1:1/mcp'], { MRTR_STATE_KEY: key });
    assert.equal(r.status, 2);
    assert.ok(!r.stderr.includes(key));
  });

  it('exits 1 with a clear message when the legacy server cannot be reached', () => {
    const r = run(['--port', '0', '--connect-timeout', '2', '--upstream', 'http://127.0.0.1:9/mcp']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cannot reach the legacy server/);
  });

  it('exits 1 when the legacy command fails to start', () => {
    const r = run(['--port', '0', '--connect-timeout', '2', '--', process.execPath, '-e', 'process.exit(5)']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cannot reach the legacy server/);
  });

  it('quotes what a legacy command that never answers wrote to stderr, which is otherwise logged at debug', () => {
    const r = run(['--port', '0', '--connect-timeout', '1', '--', process.execPath, '-e', "console.error('set API_KEY first'); setInterval(() => {}, 1000)"]);
    assert.equal(r.status, 1);
    // The child is stopped once the connect timeout passed; the error says so and quotes it.
    assert.match(r.stderr, /"error":"the legacy server [^"]*; its last stderr lines: set API_KEY first[^\n]*"message":"cannot reach the legacy server"/);
    assert.doesNotMatch(r.stderr, /upstream server stderr/);
  });

  it('exits 1 when the port is taken, before starting any legacy child', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = String((blocker.address() as { port: number }).port);
    // A legacy server that leaves a mark when it starts, and then serves the fixture.
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-port-taken-'));
    const marker = join(dir, 'started');
    const marking = join(dir, 'marking.mjs');
    writeFileSync(
      marking,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'started');\nawait import(${JSON.stringify(pathToFileURL(FIXTURE).href)});\n`,
    );
    try {
      for (const args of [
        ['--port', port, '--', process.execPath, marking],
        ['--config', portConfig(dir, port, marking)],
      ]) {
        const r = run(args);
        assert.equal(r.status, 1, r.stderr);
        assert.match(r.stderr, /cannot listen on 127\.0\.0\.1:\d+: the port is in use[^\n]*--port N \(npm start: PORT=N npm start\)[^\n]*--port 0/);
        assert.ok(!existsSync(marker), `no legacy child started (${args.join(' ')})`);
      }
      const library = createProxy(
        { listen: { host: '127.0.0.1', port: Number(port) }, logLevel: 'error', upstreams: { m: { stdio: { command: process.execPath, args: [marking] } } } },
        { env: {} },
      );
      await assert.rejects(library, (err: Error) => err instanceof StartError && /the port is in use/.test(err.message));
      assert.ok(!existsSync(marker), 'no legacy child started by createProxy');
      // The same server starts when the port is free: the marker is the server's.
      const proxy = await startProxy(['--', process.execPath, marking]);
      await proxy.stop();
      assert.ok(existsSync(marker));
    } finally {
      blocker.close();
    }
  });

  it('warns when no state key is configured', async () => {
    // Waits for the listening line (bounded) instead of a fixed 3 s run: a loaded machine is slower.
    const proxy = await startProcess(
      process.execPath,
      [PROXY_BIN, '--port', '0', '--', process.execPath, FIXTURE],
      /listening on http:\/\/127\.0\.0\.1:\d+\/mcp/,
      {
        env: { MRTR_STATE_KEY: '' },
      },
    );
    try {
      assert.match(proxy.stderr(), /generated a key for this process/);
    } finally {
      await proxy.stop();
    }
  });
});

describe('log lines', () => {
  // The proxy's stderr is a pipe here, as under a service manager or a log collector; nothing in
  // the test's environment chooses a format or colors.
  const piped = { MRTR_LOG_FORMAT: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined };
  const lines = (stderr: string) => stderr.split('\n').filter(Boolean);
  const parsed = (stderr: string) => lines(stderr).map((l) => JSON.parse(l) as { level: string; message: string });

  it('are JSON when stderr is not a terminal, and a start says one thing at info: where it listens and what it fronts', async () => {
    const proxy = await startProxy(['--', process.execPath, FIXTURE], piped);
    try {
      const started = parsed(proxy.stderr());
      const info = started.filter((l) => l.level === 'info').map((l) => l.message);
      assert.equal(info.length, 1, JSON.stringify(started));
      assert.match(info[0]!, /^listening on http:\/\/127\.0\.0\.1:\d+\/mcp in front of node legacy-server\.js over stdio$/);
    } finally {
      await proxy.stop();
    }
  });

  it('are JSON and one info line at start with the sample configuration too', async () => {
    const proxy = await startProxy(['--config', `${ROOT}config/proxy.yaml`], piped);
    try {
      const info = parsed(proxy.stderr()).filter((l) => l.level === 'info');
      assert.deepEqual(
        info.map((l) => l.message.replace(/:\d+\//, ':PORT/')),
        ['listening on http://127.0.0.1:PORT/mcp in front of demo (node demo-server.js over stdio)'],
      );
    } finally {
      await proxy.stop();
    }
  });

  it('are pretty with --log-format pretty (MRTR_LOG_FORMAT too): time, level, message, key=value, no color off a terminal', async () => {
    for (const [args, env] of [
      [['--log-format', 'pretty'], piped],
      [[], { ...piped, MRTR_LOG_FORMAT: 'pretty' }],
    ] as const) {
      const proxy = await startProxy([...args, '--log-level', 'debug', '--', process.execPath, FIXTURE], env);
      try {
        const all = lines(proxy.stderr());
        assert.ok(all.length > 3, proxy.stderr());
        for (const line of all) assert.match(line, /^\d{2}:\d{2}:\d{2}\.\d{3} (error|warn |info |debug) \S/, line);
        assert.ok(!proxy.stderr().includes('\u001b'), 'no color codes');
        assert.match(
          proxy.stderr(),
          /\n\S+ info {2}listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) in front of node legacy-server\.js over stdio url=\1 instance=\S+ upstreams=\["default"\]\n/,
        );
        const stderrLine = /debug upstream server stderr upstream=default line="fixture ready on stdio \(pid \d+\)"/;
        await until(() => stderrLine.test(proxy.stderr()), 5000, "the child's stderr line");
      } finally {
        await proxy.stop();
      }
    }
  });

  it('refuses an unknown MRTR_LOG_FORMAT at start', () => {
    const r = run(['--upstream', 'http://127.0.0.1:1/mcp'], { MRTR_LOG_FORMAT: 'yaml' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /MRTR_LOG_FORMAT: expected json or pretty, got 'yaml'/);
  });
});
