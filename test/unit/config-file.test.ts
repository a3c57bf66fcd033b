import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from '../../src/config/file.js';
import { resolveCli } from '../../src/config/resolve.js';
import { namesConfigFile, resolveArgv } from '../../src/config/resolve-argv.js';
import type { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

const EXAMPLE = fileURLToPath(new URL('../../../config/proxy.yaml', import.meta.url));
const KEY = Buffer.alloc(32, 4).toString('base64url');

describe('loadConfigFile', () => {
  it('accepts the annotated example in config/', () => {
    const f = loadConfigFile(EXAMPLE, {});
    assert.equal(f.defaultUpstream, 'demo');
    assert.equal(f.port, 8080);
    const demo = f.upstreams[0]!;
    assert.equal(demo.name, 'demo');
    assert.deepEqual(demo.target, {
      kind: 'stdio',
      command: 'node',
      args: ['../dist/examples/demo-server.js'],
      env: { DEMO_GREETING: 'Hello' },
      cwd: dirname(EXAMPLE),
    });
    assert.deepEqual(demo.roots, [{ uri: 'file:///srv/projects/demo', name: 'demo' }]);
    assert.equal(demo.maxSessions, 16);
  });

  it('resolves header secrets from the environment and applies defaults, then per-upstream limits', () => {
    const path = writeConfig(`
defaults: { maxSessions: 4, callTimeout: 20 }
upstreams:
  a:
    http: { url: "http://127.0.0.1:1/mcp" }
    headers: { Authorization: { env: TOKEN, prefix: "Bearer " }, X-Plain: v }
    maxSessions: 9
  b: { sse: { url: "http://127.0.0.1:2/sse" } }
`);
    const f = loadConfigFile(path, { TOKEN: 't0k' });
    const [a, b] = f.upstreams;
    assert.deepEqual(a!.target, { kind: 'http', url: new URL('http://127.0.0.1:1/mcp'), headers: { Authorization: 'Bearer t0k', 'X-Plain': 'v' } });
    assert.equal(a!.maxSessions, 9);
    assert.equal(a!.callTimeoutMs, 20_000);
    assert.equal(b!.maxSessions, 4);
    assert.equal(f.defaultUpstream, undefined, 'two upstreams and no default: none at /mcp');
  });

  it('makes a single upstream the default', () => {
    const f = loadConfigFile(writeConfig('upstreams: { only: { stdio: { command: x } } }'), {});
    assert.equal(f.defaultUpstream, 'only');
  });

  it('never puts a secret in an error', () => {
    assert.throws(
      () => loadConfigFile(writeConfig('upstreams: { a: { http: { url: "http://x/mcp" }, headers: { A: { env: SECRET_VAR } } } }'), { SECRET_VAR: '' }),
      (err: ConfigError) => /environment variable SECRET_VAR is not set/.test(err.message),
    );
  });
});

describe("hosted tasks in the file (an upstream's tasks:)", () => {
  const upstream = (tasks: string, extra = '') => writeConfig(`upstreams:\n  a:\n    stdio: { command: srv }\n${extra}    tasks: ${tasks}\n`);
  const rejects = (path: string, message: RegExp) =>
    assert.throws(
      () => loadConfigFile(path, {}),
      (err: ConfigError) => message.test(err.message),
    );

  it('resolves seconds to milliseconds: by default a task at once, for an hour, polled every second', () => {
    assert.deepEqual(loadConfigFile(upstream('{ tools: [build, deploy] }'), {}).upstreams[0]!.tasks, {
      tools: ['build', 'deploy'],
      required: [],
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      afterMs: 0,
    });
    assert.deepEqual(loadConfigFile(upstream('{ tools: [build], required: [book], ttl: 120, pollInterval: 0.25, after: 2.5 }'), {}).upstreams[0]!.tasks, {
      tools: ['build'],
      required: ['book'],
      ttlMs: 120_000,
      pollIntervalMs: 250,
      afterMs: 2500,
    });
    assert.deepEqual(loadConfigFile(upstream('{ required: [book] }'), {}).upstreams[0]!.tasks?.tools, [], 'required alone is enough');
    assert.equal('tasks' in loadConfigFile(writeConfig('upstreams: { a: { stdio: { command: srv } } }'), {}).upstreams[0]!, false, 'absent: no hosted tasks');
    assert.deepEqual(loadConfigFile(upstream('{ tools: [build] }', '    era: auto\n'), {}).upstreams[0]!.tasks?.tools, ['build']);
  });

  it('keeps the tasks through resolveCli --config', () => {
    const r = resolveCli(['--config', upstream('{ tools: [build], ttl: 60 }')], { MRTR_STATE_KEY: KEY });
    assert.equal(r.action, 'run');
    assert.deepEqual((r as Extract<typeof r, { action: 'run' }>).config.upstreams[0]!.tasks, {
      tools: ['build'],
      required: [],
      ttlMs: 60_000,
      pollIntervalMs: 1000,
      afterMs: 0,
    });
  });

  it('needs a tool, once, and refuses tasks on a modern upstream', () => {
    rejects(upstream('{ tools: [] }'), /upstreams\.a\.tasks: names no tool \(tools: or required:\)/);
    rejects(upstream('{ tools: [], required: [] }'), /upstreams\.a\.tasks: names no tool/);
    rejects(upstream('{ ttl: 60 }'), /upstreams\.a\.tasks: names no tool/);
    rejects(upstream('{ tools: [""] }'), /upstreams\.a\.tasks\.tools\.0/);
    rejects(upstream('{ tools: [build, book], required: [book] }'), /upstreams\.a\.tasks: 'book' is in both tools and required/);
    rejects(upstream('{ tools: [build] }', '    era: modern\n'), /upstreams\.a\.tasks: only applies to legacy upstreams/);
  });

  it('bounds the ttl, the poll interval and the delay, and refuses unknown keys, naming the field', () => {
    rejects(upstream('{ tools: [build], ttl: 0 }'), /upstreams\.a\.tasks\.ttl:/);
    rejects(upstream('{ tools: [build], ttl: 1.5 }'), /upstreams\.a\.tasks\.ttl:/);
    rejects(upstream('{ tools: [build], ttl: 604801 }'), /upstreams\.a\.tasks\.ttl:/);
    assert.equal(loadConfigFile(upstream('{ tools: [build], ttl: 604800 }'), {}).upstreams[0]!.tasks?.ttlMs, 604_800_000, 'a week is the most');
    rejects(upstream('{ tools: [build], pollInterval: 0.05 }'), /upstreams\.a\.tasks\.pollInterval:/);
    rejects(upstream('{ tools: [build], pollInterval: 3601 }'), /upstreams\.a\.tasks\.pollInterval:/);
    rejects(upstream('{ tools: [build], after: -1 }'), /upstreams\.a\.tasks\.after:/);
    rejects(upstream('{ tools: [build], after: 86401 }'), /upstreams\.a\.tasks\.after:/);
    rejects(upstream('{ tools: [build], ttlMs: 1000 }'), /upstreams\.a\.tasks: .*ttlMs/);
  });
});

describe('resolveCli with --config', () => {
  const file = () =>
    writeConfig(`
listen: { port: 9001 }
logLevel: debug
default: main
upstreams:
  main: { stdio: { command: node, args: [a.js] }, maxSessions: 3 }
  side: { http: { url: "http://127.0.0.1:5/mcp" } }
`);
  const run = (argv: string[], env: Record<string, string> = { MRTR_STATE_KEY: KEY }) => {
    const r = resolveCli(argv, env);
    assert.equal(r.action, 'run');
    return (r as Extract<typeof r, { action: 'run' }>).config;
  };

  it('takes the file as it is', () => {
    const c = run(['--config', file()]);
    assert.equal(c.port, 9001);
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.defaultUpstream, 'main');
    assert.deepEqual(
      c.upstreams.map((u) => u.name),
      ['main', 'side'],
    );
    assert.ok(c.configFile?.endsWith('.yaml'));
    assert.equal(c.stateKey.generated, false);
  });

  it('lets flags override the file', () => {
    const c = run(['--config', file(), '--port', '7000', '--log-level', 'warn', '--max-sessions', '2', '--', 'python', 'srv.py']);
    assert.equal(c.port, 7000);
    assert.equal(c.logLevel, 'warn');
    assert.ok(
      c.upstreams.every((u) => u.maxSessions === 2),
      '--max-sessions applies to every upstream',
    );
    assert.deepEqual(c.upstreams[0]!.target, { kind: 'stdio', command: 'python', args: ['srv.py'] }, '-- COMMAND replaces the default upstream');
    assert.equal(c.upstreams[1]!.target.kind, 'http');
  });

  it('requires the state key variable the file names', () => {
    const path = writeConfig('stateKeyEnv: MY_KEY\nupstreams: { a: { stdio: { command: x } } }');
    assert.throws(() => run(['--config', path], {}), /stateKeyEnv: environment variable MY_KEY is not set/);
    assert.equal(run(['--config', path], { MY_KEY: KEY }).stateKey.generated, false);
  });

  it('refuses --stdio without a default upstream, and --upstream without one to replace', () => {
    const path = writeConfig('upstreams: { a: { stdio: { command: x } }, b: { stdio: { command: y } } }');
    assert.throws(() => run(['--config', path, '--stdio']), /--stdio serves one upstream/);
    assert.throws(() => run(['--config', path, '--upstream', 'http://127.0.0.1:1/mcp']), /replaces the default upstream, but the file names none/);
  });
});

describe('the command line without zod (resolve-argv.ts, what cli/main.ts uses)', () => {
  it('namesConfigFile sees --config before `--` only', () => {
    assert.equal(namesConfigFile(['--config', 'p.yaml']), true);
    assert.equal(namesConfigFile(['--port', '0', '--config=p.yaml']), true);
    assert.equal(namesConfigFile(['--port', '0', '--', 'node', 's.js', '--config', 'x']), false);
    assert.equal(namesConfigFile(['--', 'node', 's.js']), false);
  });

  it('resolves a command line without a file loader, and refuses --config without one', () => {
    const r = resolveArgv(['--', 'node', 's.js'], { MRTR_STATE_KEY: KEY }, undefined);
    assert.equal(r.action, 'run');
    assert.throws(() => resolveArgv(['--config', 'p.yaml'], {}, undefined), /no configuration file loader/);
  });
});
