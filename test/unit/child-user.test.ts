// Who a stdio child runs as (--child-user, user: of a stdio upstream), resolved against a given
// user database, and what the proxy says at start about what its children can read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { childExposures, type ExposureFacts, readableBy } from '../../src/app/child-exposure.js';
import { parseChildUser, type UserDatabase } from '../../src/config/child-user.js';
import { resolveCli } from '../../src/config/resolve.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { childEnvironment } from '../../src/upstream/child/child-environment.js';

const DB: UserDatabase = {
  passwd: [
    'root:x:0:0:root:/root:/bin/bash',
    'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
    'mcp:x:1001:1002::/home/mcp:/bin/sh',
    'broken:x:abc:1::/:/bin/sh',
  ].join('\n'),
  group: ['root:x:0:', 'nogroup:x:65534:', 'mcp:x:1002:', 'servers:x:2000:mcp'].join('\n'),
  euid: 0,
};

const refused = (spec: string, pattern: RegExp, db: UserDatabase = DB) =>
  assert.throws(
    () => parseChildUser(spec, '--child-user', db),
    (err: unknown) => err instanceof ConfigError && err.message.startsWith('--child-user: ') && pattern.test(err.message),
  );

describe('--child-user USER[:GROUP]', () => {
  it("takes a name's uid, primary group and home from /etc/passwd", () => {
    assert.deepEqual(parseChildUser('mcp', '--child-user', DB), { uid: 1001, gid: 1002, name: 'mcp', home: '/home/mcp' });
    assert.deepEqual(parseChildUser('nobody', '--child-user', DB), { uid: 65534, gid: 65534, name: 'nobody', home: '/nonexistent' });
  });

  it('takes a group by name or id, and a numeric user with or without an entry', () => {
    assert.deepEqual(parseChildUser('mcp:servers', '--child-user', DB), { uid: 1001, gid: 2000, name: 'mcp', home: '/home/mcp' });
    assert.deepEqual(parseChildUser('1001:7', '--child-user', DB), { uid: 1001, gid: 7, name: 'mcp', home: '/home/mcp' });
    assert.deepEqual(parseChildUser('4242:4242', '--child-user', DB), { uid: 4242, gid: 4242 });
  });

  it('refuses an unknown user or group, a malformed value and a numeric user with no group to take', () => {
    refused('ghost', /no user 'ghost' in \/etc\/passwd/);
    refused('mcp:ghosts', /no group 'ghosts' in \/etc\/group/);
    refused('4242', /user id 4242 has no entry in \/etc\/passwd to take its group from; give USER:GROUP/);
    refused('', /expected USER or USER:GROUP/);
    refused('mcp:', /expected USER or USER:GROUP/);
    refused('99999999999', /is not a user id/);
    refused('broken', /no user 'broken'/);
  });

  it("refuses when the proxy is not root, and the proxy's own user", () => {
    refused('mcp', /needs the proxy to run as root \(it runs as uid 1000\)/, { ...DB, euid: 1000 });
    refused('root', /uid 0 is the proxy's own user/);
    refused('mcp', /not supported on this platform/, { ...DB, euid: -1 });
  });

  it("gives the child the user's HOME, USER and LOGNAME, under what the operator set", () => {
    const user = parseChildUser('mcp', '--child-user', DB);
    const env = childEnvironment({ user, env: { LOGNAME: 'set' } });
    assert.equal(env['HOME'], '/home/mcp');
    assert.equal(env['USER'], 'mcp');
    assert.equal(env['LOGNAME'], 'set');
    // A user with no entry has no home: the proxy's is not passed on.
    assert.equal(childEnvironment({ user: { uid: 4242, gid: 4242 } })['HOME'], undefined);
  });
});

describe('what the proxy says at start about its stdio children', () => {
  const KEY = Buffer.alloc(32, 3).toString('base64url');
  const config = (argv: string[]): ProxyConfig => {
    const r = resolveCli(['--port', '0', ...argv], { MRTR_STATE_KEY: KEY });
    assert.equal(r.action, 'run');
    return (r as { config: ProxyConfig }).config;
  };
  const facts = (over: Partial<ExposureFacts> = {}): ExposureFacts => ({
    pid: 4321,
    euid: 1000,
    ptraceScope: 1,
    env: { MRTR_STATE_KEY: KEY },
    stat: () => undefined,
    ...over,
  });
  const asUser = (c: ProxyConfig, uid: number): ProxyConfig => ({
    ...c,
    upstreams: c.upstreams.map((u) => (u.target.kind === 'stdio' ? { ...u, target: { ...u.target, user: { uid, gid: uid } } } : u)),
  });

  it("names what a child of the proxy's own user reads, and how to prevent it", () => {
    const [warning, ...rest] = childExposures(config(['--', 'srv']), facts());
    assert.deepEqual(rest, []);
    assert.deepEqual(warning!.upstreams, ['default']);
    assert.match(warning!.message, /^legacy servers started over stdio run as the proxy's own user/);
    assert.match(warning!.message, /its environment in \/proc\/4321\/environ \(MRTR_STATE_KEY, every credential given in a variable\)/);
    // Yama at 1: the memory of an ancestor is out of a child's reach.
    assert.doesNotMatch(warning!.message, /\/mem/);
    assert.match(warning!.message, /run the proxy as root with --child-user USER .*as it runs \(uid 1000\), start only legacy servers you trust/);
  });

  it('names the memory where ptrace is not restricted, and the --child-user remedy as root', () => {
    for (const ptraceScope of [undefined, 0]) {
      const [warning] = childExposures(config(['--', 'srv']), facts({ ptraceScope, euid: 0 }));
      assert.match(warning!.message, /its memory in \/proc\/4321\/mem/);
      assert.match(warning!.message, /To prevent it, run them as another user: --child-user USER, or user: in a stdio upstream/);
    }
  });

  it('says nothing without stdio children, or when they all run as another user and the files are private', () => {
    assert.deepEqual(childExposures(config(['--upstream', 'http://127.0.0.1:1/mcp']), facts()), []);
    assert.deepEqual(childExposures(asUser(config(['--', 'srv']), 65534), facts({ euid: 0 })), []);
    // Windows: no uids to tell apart.
    assert.deepEqual(childExposures(config(['--', 'srv']), facts({ euid: -1 })), []);
  });

  it('says when the key file is readable by the user a child runs as, or the key is on the command line', () => {
    const c = asUser({ ...config(['--', 'srv']), stateKey: { ...config(['--', 'srv']).stateKey, from: { file: '/etc/mrtr/key' } } }, 65534);
    const open = childExposures(c, facts({ euid: 0, stat: (p) => ({ uid: 0, gid: 0, mode: p === '/etc/mrtr/key' ? 0o100644 : 0o40755 }) }));
    assert.deepEqual(
      open.map((e) => e.message),
      ["the state key file /etc/mrtr/key is readable by the user a legacy server runs as: make it readable by the proxy's user only (chmod 600)"],
    );
    assert.deepEqual(childExposures(c, facts({ euid: 0, stat: (p) => ({ uid: 0, gid: 0, mode: p === '/etc/mrtr/key' ? 0o100600 : 0o40755 }) })), []);
    const argv = asUser(config(['--state-key', KEY, '--', 'srv']), 65534);
    assert.match(
      childExposures(argv, facts({ euid: 0 }))[0]!.message,
      /the state key is on the command line \(--state-key\), which every user reads in \/proc\/4321\/cmdline/,
    );
  });

  it('reads a file as its owner, its group or anyone else, through directories it may search', () => {
    const user = { uid: 7, gid: 8 };
    const open = { uid: 0, gid: 0, mode: 0o40755 };
    const readable = (file: { uid: number; gid: number; mode: number }, dir = open) =>
      readableBy('/etc/mrtr/key', user, (p) => (p === '/etc/mrtr/key' ? file : p === '/etc/mrtr' ? dir : open));
    assert.equal(readable({ uid: 7, gid: 0, mode: 0o400 }), true);
    assert.equal(readable({ uid: 7, gid: 8, mode: 0o044 }), false);
    assert.equal(readable({ uid: 0, gid: 8, mode: 0o640 }), true);
    assert.equal(readable({ uid: 0, gid: 8, mode: 0o604 }), false);
    assert.equal(readable({ uid: 0, gid: 0, mode: 0o604 }), true);
    assert.equal(readable({ uid: 0, gid: 0, mode: 0o600 }), false);
    // A world-readable file in a directory only root may enter (/root) is out of reach.
    assert.equal(readable({ uid: 0, gid: 0, mode: 0o644 }, { uid: 0, gid: 0, mode: 0o40700 }), false);
    assert.equal(readable({ uid: 0, gid: 0, mode: 0o644 }, { uid: 0, gid: 8, mode: 0o40710 }), true);
  });
});
