// What a new user meets first: the sample configuration as the README shows it, relative paths in
// a configuration file, two upstreams without `default:`, ${VAR} in the file, every problem of a
// bad file at once, a file that is saved again while the proxy runs, and git leaving out what
// `npm pack` leaves in the checkout.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { FIXTURE, PROXY_BIN, ROOT, startProxy } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const at = (url: string, name: string) => url.replace(/\/mcp$/, `/servers/${name}/mcp`);
const node = JSON.stringify(process.execPath);
const echo = async (url: string) => (await rpc(url, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).body.result?.['content'];

describe('first run', () => {
  it('leaves the tarball `npm pack` writes into the checkout out of git', () => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    const r = spawnSync('git', ['check-ignore', '--no-index', `${name}-${version}.tgz`], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `git check-ignore: ${r.status} ${r.stderr}`);
  });

  it('runs the sample configuration as the README shows it: no MRTR_STATE_KEY, from any directory', async () => {
    const proxy = await startProxy(['--config', join(ROOT, 'config/proxy.yaml')], { MRTR_STATE_KEY: '' }, { cwd: tmpdir() });
    try {
      assert.match(proxy.stderr(), /generated a key for this process/);
      const discover = await rpc(proxy.url, 'server/discover');
      const meta = discover.body.result?.['_meta'] as Record<string, { name: string }>;
      assert.equal(meta['io.modelcontextprotocol/serverInfo']?.name, 'mrtr-demo');
    } finally {
      await proxy.stop();
    }
  });

  it('resolves relative cwd and args against the configuration file, not the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-relative-'));
    const file = join(dir, 'proxy.yaml');
    writeFileSync(file, `upstreams:\n  a: { stdio: { command: ${node}, args: [${JSON.stringify(relative(dir, FIXTURE))}] } }\n`);
    const proxy = await startProxy(['--config', file], {}, { cwd: '/' });
    try {
      assert.deepEqual(await echo(proxy.url), [{ type: 'text', text: 'echo: hi' }]);
    } finally {
      await proxy.stop();
    }
  });

  it('warns at start about two upstreams without default:, and /mcp answers 404 with the request id and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-nodefault-'));
    const file = join(dir, 'proxy.yaml');
    const up = `{ stdio: { command: ${node}, args: [${JSON.stringify(FIXTURE)}] } }`;
    writeFileSync(file, `upstreams:\n  a: ${up}\n  b: ${up}\n`);
    const proxy = await startProxy(['--config', file]);
    try {
      assert.match(proxy.stderr(), /no `default:` upstream in the configuration file: \/mcp answers 404; clients use \/servers\/NAME\/mcp/);
      // The start line names the endpoints that answer, not /mcp.
      const origin = new URL(proxy.url).origin;
      assert.match(proxy.stderr(), new RegExp(`listening on ${origin}/servers/a/mcp in front of [^,]+, ${origin}/servers/b/mcp in front of `));
      const r = await rpc(`${origin}/mcp`, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { id: 42 });
      assert.equal(r.status, 404);
      assert.equal(r.body.id, 42);
      assert.match(r.body.error!.message, /^no default upstream is configured \(the configuration file has no `default:`\); use \/servers\/NAME\/mcp$/);
      assert.deepEqual(await echo(`${origin}/servers/b/mcp`), [{ type: 'text', text: 'echo: hi' }]);
    } finally {
      await proxy.stop();
    }
  });

  it('interpolates ${VAR} in the file and reports every problem of a bad file at once, without the usage line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-vars-'));
    const file = join(dir, 'proxy.yaml');
    writeFileSync(file, 'upstreams:\n  a: { stdio: { command: "${TEST_NODE}", args: ["${TEST_FIXTURE}"] } }\n');
    const proxy = await startProxy(['--config', file], { TEST_NODE: process.execPath, TEST_FIXTURE: FIXTURE });
    try {
      assert.deepEqual(await echo(proxy.url), [{ type: 'text', text: 'echo: hi' }]);
    } finally {
      await proxy.stop();
    }
    const bad = spawnSync(process.execPath, [PROXY_BIN, '--config', file], { encoding: 'utf8', timeout: 10_000, env: { ...process.env, TEST_NODE: '' } });
    assert.equal(bad.status, 2);
    const lines = bad.stderr.trim().split('\n');
    assert.equal(lines.length, 2, bad.stderr);
    assert.equal(lines[0], `mrtr-proxy: ${file}: upstreams.a.stdio.args[0]: environment variable TEST_FIXTURE is not set`);
    assert.match(lines[1]!, new RegExp(`^mrtr-proxy: ${file}: upstreams\\.a\\.stdio\\.command: `));
    assert.doesNotMatch(bad.stderr, /--help/);
  });

  it('reloads the file when it is saved again, also by an editor that renames a new file over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-watch-'));
    const file = join(dir, 'proxy.yaml');
    const up = `{ stdio: { command: ${node}, args: [${JSON.stringify(FIXTURE)}] } }`;
    writeFileSync(file, `default: a\nupstreams:\n  a: ${up}\n`);
    const proxy = await startProxy(['--config', file]);
    try {
      const temp = join(dirname(file), '.proxy.yaml.swp');
      writeFileSync(temp, `default: a\nupstreams:\n  a: ${up}\n  b: ${up}\n`);
      renameSync(temp, file);
      await until(async () => (await rpc(at(proxy.url, 'b'), 'server/discover')).status === 200, 10_000, 'upstream b after the rename');
      writeFileSync(file, 'upstreams: [');
      await until(() => /configuration rejected; the running configuration stays/.test(proxy.stderr()), 5000, 'the bad save rejected');
      assert.deepEqual(await echo(at(proxy.url, 'b')), [{ type: 'text', text: 'echo: hi' }]);
    } finally {
      await proxy.stop();
    }
  });
});
