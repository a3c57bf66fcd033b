// The most used legacy server, @modelcontextprotocol/server-filesystem, started with no directory
// arguments: it asks roots/list right after initialize, outside any call, and serves exactly the
// directories the answer names. Through the proxy a 2026-07-28 client's roots must be what it
// serves (issue 15), and a client without roots gets the operator's --root.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { ROOTS_ROUND_KEY } from '../../src/protocol/roots.js';
import { connectClient, textOf } from '../support/client.js';
import { FILESYSTEM, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mrtr-fs-roots-')));
function makeDir(name: string, file: string, text: string): string {
  const d = mkdtempSync(join(base, `${name}-`));
  writeFileSync(join(d, file), text);
  return d;
}

const A = makeDir('a', 'a.txt', 'inside A');
const B = makeDir('b', 'b.txt', 'inside B');
const OPS = makeDir('ops', 'ops.txt', 'operator root');

/** A 2026-07-28 client whose roots are `dirs` (no roots capability when undefined). */
function client(url: string, dirs: string[] | undefined): Promise<Client> {
  if (dirs === undefined) return connectClient(url, {});
  return connectClient(url, { roots: {} }, { roots: () => ({ roots: dirs.map((d) => ({ uri: pathToFileURL(d).href })) }) });
}

const allowed = async (c: Client) => textOf(await c.callTool({ name: 'list_allowed_directories', arguments: {} }));
const read = async (c: Client, path: string) => {
  const r = await c.callTool({ name: 'read_text_file', arguments: { path } });
  return { text: textOf(r), isError: r.isError === true };
};

describe('server-filesystem without directory arguments behind the proxy', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--root', `${pathToFileURL(OPS).href}=ops`, '--', process.execPath, FILESYSTEM]);
  });
  after(async () => {
    await proxy?.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('asks a client that declares roots for them first, with one extra round', async () => {
    const r = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'list_allowed_directories', arguments: {} }, { caps: { roots: {} } }));
    assert.deepEqual(r.inputRequests, { [ROOTS_ROUND_KEY]: { method: 'roots/list' } });
    const done = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'list_allowed_directories',
        arguments: {},
        requestState: r.requestState,
        inputResponses: { [ROOTS_ROUND_KEY]: { roots: [{ uri: pathToFileURL(A).href }] } },
      },
      { caps: { roots: {} } },
    );
    assert.equal(done.body.result!['resultType'], 'complete');
    assert.equal(textOf(done.body.result), `Allowed directories:\n${A}`);
  });

  it('a client with roots [A] lists exactly A and reads inside it', async () => {
    const c = await client(proxy.url, [A]);
    try {
      assert.equal(await allowed(c), `Allowed directories:\n${A}`);
      assert.deepEqual(await read(c, join(A, 'a.txt')), { text: 'inside A', isError: false });
    } finally {
      await c.close();
    }
  });

  it("the same client is denied a file of another client's root B", async () => {
    const c = await client(proxy.url, [A]);
    try {
      const r = await read(c, join(B, 'b.txt'));
      assert.equal(r.isError, true);
      assert.match(r.text, /Access denied - path outside allowed directories/);
      assert.doesNotMatch(r.text, /inside B/);
    } finally {
      await c.close();
    }
  });

  it('two clients with roots A and B at the same time each see only their own', async () => {
    const [ca, cb] = await Promise.all([client(proxy.url, [A]), client(proxy.url, [B])]);
    try {
      const rounds = await Promise.all([
        allowed(ca),
        allowed(cb),
        read(ca, join(A, 'a.txt')),
        read(cb, join(B, 'b.txt')),
        read(ca, join(B, 'b.txt')),
        read(cb, join(A, 'a.txt')),
      ]);
      assert.equal(rounds[0], `Allowed directories:\n${A}`);
      assert.equal(rounds[1], `Allowed directories:\n${B}`);
      assert.deepEqual(rounds[2], { text: 'inside A', isError: false });
      assert.deepEqual(rounds[3], { text: 'inside B', isError: false });
      assert.equal((rounds[4] as { isError: boolean }).isError, true);
      assert.equal((rounds[5] as { isError: boolean }).isError, true);
    } finally {
      await Promise.all([ca.close(), cb.close()]);
    }
  });

  it('a client without roots sees the --root directories', async () => {
    const c = await client(proxy.url, undefined);
    try {
      assert.equal(await allowed(c), `Allowed directories:\n${OPS}`);
      assert.deepEqual(await read(c, join(OPS, 'ops.txt')), { text: 'operator root', isError: false });
      assert.equal((await read(c, join(A, 'a.txt'))).isError, true);
    } finally {
      await c.close();
    }
  });
});
