// What a stdio child can read of the proxy's secrets. A child of the proxy's own user opens the
// proxy's /proc/PID/environ and memory and every file the proxy reads, and the proxy says so at
// start; one run as another user (--child-user, or user: of a stdio upstream; the proxy runs as
// root) opens none of them, and still ends with a SIGKILLed proxy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { alive, FIXTURE, startProxy, TEST_STATE_KEY } from '../support/processes.js';
import { skipOrFail } from '../support/skip.js';
import { until } from '../support/wait.js';

const CHILD_USER = 'nobody';

/** Why children cannot be run as another user on this machine (CI runs as root, where they can), or false. */
function whyNotAsAnotherUser(): string | false {
  if (process.geteuid?.() !== 0) return `the tests run as uid ${process.geteuid?.()}, and only root runs a child as another user`;
  if (spawnSync('id', ['-u', CHILD_USER]).status !== 0) return `no user '${CHILD_USER}' here`;
  return false;
}

/**
 * The fixture bundled into one file of a directory anyone may enter: the checkout may lie under a
 * directory closed to other users (a 0700 home or temporary directory), which the child could not
 * read its script or modules from.
 */
async function bundleFixture(into: string): Promise<string> {
  const outfile = join(into, 'legacy-server.mjs');
  await build({
    entryPoints: [FIXTURE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
    // Bundled CommonJS packages call require for node's own modules.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  chmodSync(outfile, 0o644);
  return outfile;
}

const noOtherUser = skipOrFail('faults/child-user (stdio children run as another user)', whyNotAsAnotherUser());

/** The fixture's probe lines: path (the proxy's pid as PARENT) -> readable or an errno code. */
function probes(stderr: string): Map<string, string> {
  return new Map([...stderr.matchAll(/fixture probe (\S+): (\w+)/g)].map((m) => [m[1]!, m[2]!]));
}

describe('what a stdio child can read of the proxy', () => {
  let dir: string;
  let keyFile: string;
  let configFile: string;
  let fixture: string;
  /** A configuration file for one stdio upstream running the probing fixture, with `extra` lines in its stdio:. */
  const writeConfig = (extra: string) =>
    writeFileSync(
      configFile,
      [
        'upstreams:',
        '  probe:',
        '    stdio:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(fixture)}, --probe-secrets, ${JSON.stringify(`${keyFile},${configFile}`)}]`,
        extra,
      ]
        .filter(Boolean)
        .join('\n'),
      { mode: 0o600 },
    );

  before(async () => {
    // A directory anyone may enter, holding files only their owner may read: what the child meets
    // is the files' own permissions.
    dir = mkdtempSync(join(tmpdir(), 'mrtr-child-user-'));
    chmodSync(dir, 0o755);
    fixture = await bundleFixture(dir);
    keyFile = join(dir, 'state.key');
    configFile = join(dir, 'proxy.yaml');
    writeFileSync(keyFile, `${TEST_STATE_KEY}\n`, { mode: 0o600 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the proxy's environment, memory and files when it runs as the proxy's user, and the proxy warns about it", async () => {
    writeConfig('');
    const proxy = await startProxy(['--log-level', 'debug', '--config', configFile, '--state-key-file', keyFile]);
    try {
      await until(() => probes(proxy.stderr()).size === 4, 5000, "the child's probes");
      const seen = probes(proxy.stderr());
      assert.equal(seen.get('/proc/PARENT/environ'), 'readable');
      assert.equal(seen.get(keyFile), 'readable');
      assert.equal(seen.get(configFile), 'readable');
      const warning = proxy
        .stderr()
        .split('\n')
        .find((l) => l.includes("run as the proxy's own user"));
      assert.ok(warning, `a warning at start:\n${proxy.stderr()}`);
      const { level, message, upstreams } = JSON.parse(warning) as { level: string; message: string; upstreams: string[] };
      assert.equal(level, 'warn');
      assert.deepEqual(upstreams, ['probe']);
      assert.match(message, new RegExp(`/proc/${proxy.child.pid}/environ \\(MRTR_STATE_KEY, every credential`));
      assert.ok(message.includes(`the state key file ${keyFile}`), message);
      assert.ok(message.includes(`the configuration file ${configFile}`), message);
      assert.match(message, /--child-user USER/);
    } finally {
      await proxy.stop();
    }
  });

  for (const how of ['--child-user', 'user: of the stdio upstream'] as const) {
    it(`reads none of them when run as another user (${how}), and still ends with a SIGKILLed proxy`, { skip: noOtherUser !== false }, async () => {
      writeConfig(how === '--child-user' ? '' : `      user: ${CHILD_USER}`);
      const flag = how === '--child-user' ? ['--child-user', CHILD_USER] : [];
      const proxy = await startProxy(['--log-level', 'debug', '--config', configFile, '--state-key-file', keyFile, ...flag]);
      try {
        await until(() => probes(proxy.stderr()).size === 4, 5000, "the child's probes");
        const seen = probes(proxy.stderr());
        const uid = Number(/fixture runs as uid (\d+)/.exec(proxy.stderr())?.[1]);
        assert.equal(uid, Number(spawnSync('id', ['-u', CHILD_USER], { encoding: 'utf8' }).stdout.trim()));
        assert.deepEqual(Object.fromEntries(seen), {
          '/proc/PARENT/environ': 'EACCES',
          '/proc/PARENT/mem': 'EACCES',
          [keyFile]: 'EACCES',
          [configFile]: 'EACCES',
        });
        assert.doesNotMatch(proxy.stderr(), /run as the proxy's own user|is readable by the user/);
        // The watchdog (root) still ends a child of another user that outlives the proxy.
        await until(() => /fixture ready on stdio/.test(proxy.stderr()), 5000, 'a started child');
        const children = [...proxy.stderr().matchAll(/fixture ready on stdio \(pid (\d+)\)/g)].map((m) => Number(m[1]));
        const exited = once(proxy.child, 'exit');
        proxy.child.kill('SIGKILL');
        await exited;
        await until(() => !children.some(alive), 5000, `children ${children.join(', ')} gone after the proxy was SIGKILLed`);
      } finally {
        await proxy.stop();
      }
    });
  }

  it('says when a key file a child of another user may read is readable by it', { skip: noOtherUser !== false }, async () => {
    writeConfig(`      user: ${CHILD_USER}`);
    chmodSync(keyFile, 0o644);
    try {
      const proxy = await startProxy(['--config', configFile, '--state-key-file', keyFile]);
      await proxy.stop();
      assert.match(proxy.stderr(), new RegExp(`the state key file ${keyFile} is readable by the user a legacy server runs as`));
    } finally {
      chmodSync(keyFile, 0o600);
    }
  });
});
