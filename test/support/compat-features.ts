// Feature by feature, what a legacy server's own client gets and what a 2026-07-28 client gets
// through the proxy: tools, elicitation, sampling, roots (during a call and read after connect),
// logs, progress, resources and prompts. The legacy path is the v1 SDK client declaring what
// desktop clients declare (elicitation, sampling, roots with listChanged) and, like them, listing
// the tools and leaving the server a moment before its first call; the 2026-07-28 path is raw
// HTTP (support/rpc.ts), answering every input request the same way and asking for logs
// (logLevel debug) and progress, so every notification of every round is seen.
import assert from 'node:assert/strict';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { rpc } from './rpc.js';

export type Feature = 'tools' | 'elicitation' | 'sampling' | 'roots during a call' | 'roots after connect' | 'logs' | 'progress' | 'resources' | 'prompts';

export type FeatureCall = { tool: string; arguments?: Record<string, unknown> } | { resource: string } | { prompt: string; arguments?: Record<string, string> };

/** Where the legacy server is: a command (stdio) or a Streamable HTTP URL. */
export type LegacyTarget = { command: string; args: string[]; env?: Record<string, string> } | { url: string };

/** What a client answers: the same on both paths. */
export const ROOTS = [{ uri: 'file:///work/project', name: 'project' }];
export const ELICITED = { action: 'accept', content: { name: 'Ada' } };
export const SAMPLED = { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled text' }, stopReason: 'endTurn' };
export const CLIENT_CAPS = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

function answerFor(method: string): Record<string, unknown> {
  if (method === 'elicitation/create') return ELICITED;
  if (method === 'sampling/createMessage') return SAMPLED;
  if (method === 'roots/list') return { roots: ROOTS };
  throw new Error(`no answer for ${method}`);
}

export interface Heard {
  /** The result, without what only one revision carries (resultType, _meta). */
  result: Record<string, unknown>;
  logs: unknown[];
  progress: unknown[];
}

/** A legacy client on `target`, connected, that answers like a desktop client and records logs. */
export async function legacyClient(target: LegacyTarget, settleMs = 200): Promise<{ call(c: FeatureCall): Promise<Heard>; close(): Promise<void> }> {
  const client = new LegacyClient({ name: 'compat-legacy', version: '1.0.0' }, { capabilities: CLIENT_CAPS });
  client.setRequestHandler(ElicitRequestSchema, async () => ELICITED as never);
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED as never);
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: ROOTS }));
  const transport =
    'url' in target
      ? new StreamableHTTPClientTransport(new URL(target.url))
      : new StdioClientTransport({
          command: target.command,
          args: target.args,
          env: { ...(process.env as Record<string, string>), ...target.env },
          stderr: 'ignore',
        });
  await client.connect(transport, { timeout: 30_000 });
  const heard = wireNotifications(transport);
  // What a desktop client does before its first call: it lists the tools, and a person takes a moment.
  await client.listTools();
  await new Promise((r) => setTimeout(r, settleMs));
  return {
    async call(c) {
      heard.clear();
      // Raw results (a loose schema), as the server sent them: the SDK's own result schemas drop
      // fields they do not know, which the proxy relays. `onprogress` makes the SDK send a token.
      const [method, params] = requestOf(c);
      const result = await client.request({ method, params } as never, ResultSchema, { onprogress: () => {}, timeout: 30_000 });
      return { result: comparable(result), logs: [...heard.logs], progress: [...heard.progress] };
    },
    close: () => client.close(),
  };
}

/**
 * Log lines and progress as they arrive on the legacy client's transport, in wire order, before the
 * SDK sees them: the v1 SDK dispatches notifications a tick after responses, so it drops the last
 * progress of a call (its handler is gone by then) and a test reading its handlers races the result.
 */
export function wireNotifications(transport: Transport): { logs: unknown[]; progress: unknown[]; clear(): void } {
  const heard = {
    logs: [] as unknown[],
    progress: [] as unknown[],
    clear() {
      heard.logs.length = 0;
      heard.progress.length = 0;
    },
  };
  const inner = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    if (m.method === 'notifications/message') heard.logs.push(m.params);
    if (m.method === 'notifications/progress' && m.params) {
      const { progressToken: _token, ...rest } = m.params;
      heard.progress.push(rest);
    }
    inner?.(message, extra);
  };
  return heard;
}

/** One request through the proxy as a 2026-07-28 client, every round answered; what it heard. */
export async function throughProxy(
  url: string,
  c: FeatureCall,
  caps: Record<string, unknown> = CLIENT_CAPS,
): Promise<Heard & { rounds: number; asked: string[] }> {
  const [method, params] = requestOf(c);
  const logs: unknown[] = [];
  const progress: unknown[] = [];
  const asked: string[] = [];
  let retry: Record<string, unknown> = {};
  for (let rounds = 1; rounds <= 10; rounds++) {
    const reply = await rpc(url, method, { ...params, ...retry }, { caps, meta: { 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'compat' } });
    for (const n of reply.notifications) {
      if (n.method === 'notifications/message') logs.push(n.params);
      if (n.method === 'notifications/progress') {
        const { progressToken, ...rest } = n.params ?? {};
        assert.equal(progressToken, 'compat', 'progress under the client token');
        progress.push(rest);
      }
    }
    const result = reply.body.result;
    assert.ok(result, `${method}: ${JSON.stringify(reply.body.error)}`);
    if (result['resultType'] !== 'input_required') return { result: comparable(result), logs, progress, rounds, asked };
    const responses: Record<string, unknown> = {};
    for (const [key, q] of Object.entries(result['inputRequests'] as Record<string, { method: string }>)) {
      asked.push(q.method);
      responses[key] = answerFor(q.method);
    }
    retry = { requestState: result['requestState'], inputResponses: responses };
  }
  throw new Error(`${method}: more than 10 rounds`);
}

function requestOf(c: FeatureCall): [string, Record<string, unknown>] {
  if ('tool' in c) return ['tools/call', { name: c.tool, arguments: c.arguments ?? {} }];
  if ('resource' in c) return ['resources/read', { uri: c.resource }];
  return ['prompts/get', { name: c.prompt, arguments: c.arguments ?? {} }];
}

/** A result as both revisions carry it: without resultType, _meta, and a read's cache fields. */
function comparable(result: unknown): Record<string, unknown> {
  const { resultType: _r, _meta: _m, ttlMs: _t, cacheScope: _c, ...rest } = result as Record<string, unknown>;
  return rest;
}

/** Asserts that the proxy's client heard what the legacy client heard, for `feature`. */
export function assertSameHeard(feature: Feature, direct: Heard, proxied: Heard): void {
  assert.deepEqual(proxied.result, direct.result, `${feature}: the same result`);
  if (feature === 'logs') {
    assert.ok(direct.logs.length > 0, 'the server logs');
    assert.deepEqual(proxied.logs, direct.logs, 'the same log lines, in order');
  }
  if (feature === 'progress') {
    assert.ok(direct.progress.length > 0, 'the server reports progress');
    assert.deepEqual(proxied.progress, direct.progress, 'the same progress');
  }
}

export interface FeatureCase {
  feature: Feature;
  call: FeatureCall;
  /** What the result's text must show on both paths (that the feature did its work). */
  shows: RegExp;
}

export interface FeatureSuite {
  /** Names the describe block: the stack, its version and the transport. */
  name: string;
  /** Why the suite cannot run here (a SKIPPED line was printed), or false. */
  skip: string | false;
  /** Starts what both paths need (an HTTP server); returns the legacy target and the proxy's upstream arguments. */
  start(): Promise<{ target: LegacyTarget; proxyArgs: string[]; stop?: () => Promise<unknown> }>;
  cases: FeatureCase[];
}

/** Text of a tools/call result, a resource's contents or a prompt's messages. */
export function textOfResult(result: Record<string, unknown>): string {
  return JSON.stringify(result['content'] ?? result['contents'] ?? result['messages'] ?? result);
}
