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
