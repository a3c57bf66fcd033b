// The compatibility suite's two paths to one real legacy server from npm: directly with the legacy
// v1 SDK client over stdio, and through the proxy with the official 2026-07-28 client. Both
// declare no client capabilities, so the server registers the same tools for each. Lists must be
// equal apart from what the 2026-07-28 schema requires (`without2025Only`), call results apart
// from the 2026-07-28 result fields (`callBoth`); the README lists each difference.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient } from './client.js';
import { startProxy, type ProxyProcess } from './processes.js';
import { rpc } from './rpc.js';

export interface ServerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** What either client can do: the method names both SDKs share. */
export interface Lister {
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string }>;
  listPrompts(params?: { cursor?: string }): Promise<{ prompts: unknown[]; nextCursor?: string }>;
  listResources(params?: { cursor?: string }): Promise<{ resources: unknown[]; nextCursor?: string }>;
  listResourceTemplates(params?: { cursor?: string }): Promise<{ resourceTemplates: unknown[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
}

export interface Paths {
  direct: Lister;
  proxied: Lister;
  /** What the legacy server declared at initialize, seen directly. */
  capabilities: Record<string, unknown>;
  serverInfo: unknown;
  proxy: ProxyProcess;
  close(): Promise<void>;
}

/** Starts the server directly and behind a proxy (which spawns its own copies of it). */
export async function openPaths(server: ServerCommand, proxyArgs: string[] = []): Promise<Paths> {
  const legacy = new LegacyClient({ name: 'compat-direct', version: '1.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...(process.env as Record<string, string>), ...server.env },
    ...(server.cwd ? { cwd: server.cwd } : {}),
    stderr: 'ignore',
  });
  await legacy.connect(transport, { timeout: 30_000 });
  const proxy = await startProxy(['--spare-sessions', '0', ...proxyArgs, '--', server.command, ...server.args], server.env ?? {});
  let client: Client;
  try {
    client = await connectClient(proxy.url, {});
  } catch (err) {
    await proxy.stop();
    await legacy.close();
    throw err;
  }
  return {
    direct: legacy as unknown as Lister,
    proxied: client as unknown as Lister,
    capabilities: (legacy.getServerCapabilities() ?? {}) as Record<string, unknown>,
    serverInfo: legacy.getServerVersion(),
    proxy,
    async close() {
      await client.close().catch(() => {});
      await proxy.stop();
      await legacy.close();
    },
  };
}

async function all<K extends string>(page: (cursor?: string) => Promise<Record<K, unknown[]> & { nextCursor?: string }>, key: K): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await page(cursor);
    out.push(...r[key]);
    cursor = r.nextCursor;
    if (!cursor) return out;
  }
  throw new Error(`more than 100 pages of ${key}`);
}

export interface Snapshot {
  tools: unknown[];
  prompts: unknown[];
  resources: unknown[];
  resourceTemplates: unknown[];
}

/** Every tool, prompt, resource and template a server lists (all pages), for what it declared. */
export async function snapshot(c: Lister, capabilities: Record<string, unknown>): Promise<Snapshot> {
  const has = (k: string) => k in capabilities;
  return {
    tools: has('tools') ? await all((cursor) => c.listTools(cursor ? { cursor } : {}), 'tools') : [],
    prompts: has('prompts') ? await all((cursor) => c.listPrompts(cursor ? { cursor } : {}), 'prompts') : [],
    resources: has('resources') ? await all((cursor) => c.listResources(cursor ? { cursor } : {}), 'resources') : [],
    resourceTemplates: has('resources') ? await all((cursor) => c.listResourceTemplates(cursor ? { cursor } : {}), 'resourceTemplates') : [],
  };
}

/**
 * The one difference the 2026-07-28 schema requires in lists: a tool's `execution` (legacy task
 * support; 2026-07-28 moved tasks to an extension, and its Tool has no such field) is dropped.
 */
export function without2025Only(s: Snapshot): Snapshot {
  return { ...s, tools: s.tools.map((t) => Object.fromEntries(Object.entries(t as Record<string, unknown>).filter(([k]) => k !== 'execution'))) };
}

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** A call to make on both paths; the results must be equal. */
export type SafeCall =
  /** `isError`: the tool reports an error result on both paths (a call that must fail). */
  { tool: string; arguments?: Record<string, unknown>; isError?: true } | { prompt: string; arguments?: Record<string, string> } | { resource: string };

export function describeCall(call: SafeCall): string {
  if ('tool' in call) return `tools/call ${call.tool}`;
  if ('prompt' in call) return `prompts/get ${call.prompt}`;
  return `resources/read ${call.resource}`;
}

/**
 * Runs `call` directly, then through the proxy. A 2026-07-28 result carries `resultType`
 * ("complete") and `_meta["io.modelcontextprotocol/serverInfo"]` (the legacy server's identity),
 * and a resources/read result `ttlMs` and `cacheScope`, which a legacy result never has; those
 * are checked and removed, nothing else.
 */
export async function callBoth(p: Paths, call: SafeCall): Promise<{ direct: unknown; proxied: unknown }> {
  const run = (c: Lister) => {
    if ('tool' in call) return c.callTool({ name: call.tool, arguments: call.arguments ?? {} });
    if ('prompt' in call) return c.getPrompt({ name: call.prompt, arguments: call.arguments ?? {} });
    return c.readResource({ uri: call.resource });
  };
  const direct = await run(p.direct);
  const { resultType, _meta, ...proxied } = (await run(p.proxied)) as Record<string, unknown>;
  assert.ok(resultType === undefined || resultType === 'complete', `resultType ${String(resultType)}`);
  if ('resource' in call) {
    // A 2026-07-28 resources/read result is cacheable; the proxy says: do not cache, per client.
    assert.deepEqual([proxied['ttlMs'], proxied['cacheScope']], [0, 'private']);
    delete proxied['ttlMs'];
    delete proxied['cacheScope'];
  }
  const { [SERVER_INFO]: info, ...meta } = (_meta ?? {}) as Record<string, unknown>;
  assert.deepEqual(info, p.serverInfo, 'serverInfo names the legacy server');
  return { direct, proxied: Object.keys(meta).length > 0 ? { ...proxied, _meta: meta } : proxied };
}

export interface CompatCase {
  name: string;
  /** Called in `before`: may prepare temp directories first. */
  server: () => ServerCommand | Promise<ServerCommand>;
  /** Safe calls, made after the lists are compared. */
  calls: SafeCall[];
  /** Sets up state the calls read (through the direct client, before anything is compared). */
  prepare?: (direct: Lister) => Promise<void>;
  after?: () => void;
  /** Why the server cannot run here (a SKIPPED line was printed). */
  skip?: string | false;
}

/** One describe block per server: lists (and server/discover) equal, then each safe call equal. */
export function compatSuite(c: CompatCase): void {
  describe(`${c.name}: directly (v1 SDK client) and through the proxy (2026-07-28 client)`, { skip: c.skip ?? false }, () => {
    let p: Paths;
    before(async () => {
      p = await openPaths(await c.server());
      await c.prepare?.(p.direct);
    });
    after(async () => {
      await p?.close();
      c.after?.();
    });

    it('lists the same tools, prompts, resources and templates', async () => {
      const direct = await snapshot(p.direct, p.capabilities);
      const proxied = await snapshot(p.proxied, p.capabilities);
      assert.deepEqual(proxied, without2025Only(direct));
      assert.ok(direct.tools.length + direct.prompts.length + direct.resources.length > 0, 'the server offers something');
    });

    it('describes the server with its capabilities and logging, legacy tasks as the tasks extension', async () => {
      const d = (await rpc(p.proxy.url, 'server/discover', {}, { caps: {} })).body.result!;
      // `logging` always: the proxy relays log lines whether or not the server declared it (docs/compatibility.md).
      const { tasks, ...declared } = p.capabilities;
      const caps = { logging: {}, ...declared };
      const toolTasks = (tasks as { requests?: { tools?: { call?: object } } } | undefined)?.requests?.tools?.call !== undefined;
      assert.deepEqual(d['capabilities'], toolTasks ? { ...caps, extensions: { 'io.modelcontextprotocol/tasks': {} } } : caps);
    });

    for (const call of c.calls) {
      it(`${describeCall(call)} gives the same result`, async () => {
        const { direct, proxied } = await callBoth(p, call);
        assert.equal((direct as { isError?: boolean }).isError === true, 'isError' in call, 'the call succeeds unless marked isError');
        assert.deepEqual(proxied, direct);
      });
    }
  });
}
