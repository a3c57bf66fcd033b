// The bridge's end-to-end contract: what every front must show of the legacy fixture, whatever
// transport reaches it. `defineContract` registers the suite for one started combination.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { expectCallsKeptApart, textOf } from '../support/client.js';
import { until } from '../support/wait.js';
import { defineRoundContract } from './rounds.js';
import { start, type FrontKind, type Setup, type UpstreamKind } from './fronts.js';
import { exchange } from './wire.js';

/** Holds the started combination for the tests, which run after `before`. */
export interface Live {
  readonly setup: Setup;
  readonly client: Client;
}

interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

async function errorOf(p: Promise<unknown>): Promise<WireError> {
  try {
    await p;
  } catch (err) {
    return err as WireError;
  }
  throw new Error('expected the request to fail');
}

const count = (text: string, re: RegExp) => text.match(new RegExp(re.source, 'g'))?.length ?? 0;

export function defineContract(upstream: UpstreamKind, front: FrontKind): void {
  // Its tests in order, on the one started combination.
  describe(`contract: ${upstream} upstream, ${front} front`, { concurrency: false }, () => {
    let setup: Setup | undefined;
    const live: Live = {
      get setup() {
        if (!setup) throw new Error('the combination did not start');
        return setup;
      },
      get client() {
        return this.setup.client;
      },
    };
    before(async () => {
      setup = await start(upstream, front);
    });
    after(async () => {
      await setup?.teardown();
    });

    it('server/discover describes the legacy server, without legacy tasks', async () => {
      const d = await live.client.discover();
      assert.deepEqual(d.supportedVersions, ['2026-07-28']);
      const meta = d._meta as Record<string, { name: string; version: string }>;
      assert.deepEqual(meta['io.modelcontextprotocol/serverInfo'], { name: 'fixture-legacy', version: '1.2.3' });
      assert.equal(d.instructions, 'A legacy fixture for mrtr-proxy tests.');
      const caps = d.capabilities as Record<string, unknown>;
      assert.ok(caps['tools'] && caps['resources'] && caps['prompts'], JSON.stringify(caps));
      assert.equal(caps['tasks'], undefined);
      assert.equal(live.client.getProtocolEra(), 'modern');
      assert.equal(live.client.getServerVersion()?.name, 'fixture-legacy', 'the connect-time probe saw the same');
    });

    it('lists the legacy tools with their input schemas', async () => {
      const tools = (await live.client.listTools()).tools;
      for (const t of ['echo', 'ask-name', 'ask-twice', 'summarize', 'list-roots', 'slow'])
        assert.ok(
          tools.some((x) => x.name === t),
          t,
        );
      const echo = tools.find((t) => t.name === 'echo')!;
      assert.deepEqual(echo.inputSchema.required, ['text']);
    });

    it('forwards a call that needs no input', async () => {
      assert.equal(textOf(await live.client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
    });

    it('turns a mid-call elicitation into an input_required round and resumes the call', async () => {
      assert.equal(textOf(await live.client.callTool({ name: 'ask-name', arguments: { greeting: 'Hi' } })), 'Hi, Ada!');
    });

    it('translates sampling', async () => {
      assert.equal(textOf(await live.client.callTool({ name: 'summarize', arguments: { text: 'x' } })), 'summary by test-model: sampled text');
    });

    it('translates roots', async () => {
      assert.equal(textOf(await live.client.callTool({ name: 'list-roots', arguments: {} })), 'roots: file:///work/project');
    });

    it('bridges elicitation inside prompts/get and resources/read', async () => {
      const prompt = await live.client.getPrompt({ name: 'greet', arguments: {} });
      assert.deepEqual(prompt.messages[0]!.content, { type: 'text', text: 'Greet world' });
      const secret = await live.client.readResource({ uri: 'fixture://secret' });
      assert.equal((secret.contents[0] as { text: string }).text, 'secret for h');
      const plain = await live.client.readResource({ uri: 'fixture://static' });
      assert.equal((plain.contents[0] as { text: string }).text, 'static text');
    });

    it("relays progress under the client's token, before the result", async () => {
      // Checked on the wire: the official client drops progress it dispatches after the response
      // (modelcontextprotocol/typescript-sdk#2580), which happens when both arrive in one stdio chunk.
      const x = await exchange(live.setup.wire, 'tools/call', () =>
        live.client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: () => {} }),
      );
      const token = x.request.params?._meta?.['progressToken'];
      assert.notEqual(token, undefined);
      const mine = x.replies.filter((m) => m.method === 'notifications/progress' && m.params?.['progressToken'] === token);
      assert.deepEqual(
        mine.map((m) => [m.params!['progress'], m.params!['total']]),
        [
          [1, 3],
          [2, 3],
          [3, 3],
        ],
      );
      assert.equal(textOf(x.response.result), 'did 3 steps');
    });

    it('relays log messages only at the level the request asks for', async () => {
      const logged = async (level?: string) => {
        const meta = level ? { _meta: { 'io.modelcontextprotocol/logLevel': level } } : {};
        const x = await exchange(live.setup.wire, 'tools/call', () =>
          live.client.callTool({ name: 'log', arguments: { level: 'info', message: 'hello' }, ...meta }),
        );
        return x.replies.filter((m) => m.method === 'notifications/message').map((m) => m.params!['data']);
      };
      assert.deepEqual(await logged(), []);
      assert.deepEqual(await logged('debug'), ['hello']);
      assert.deepEqual(await logged('error'), []);
    });

    it("passes vendor _meta upstream, but not the 2026-07-28 envelope or the client's progress token", async () => {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
      const x = await exchange(live.setup.wire, 'tools/call', () =>
        live.client.callTool({ name: 'meta', arguments: {}, _meta: { 'com.example/tenant': 't1', traceparent } }, { onprogress: () => {} }),
      );
      const sent = x.request.params!._meta!;
      assert.ok(sent['io.modelcontextprotocol/protocolVersion'] !== undefined && sent['progressToken'] !== undefined, 'the client sent both');
      const seen = JSON.parse(textOf(x.response.result)) as Record<string, unknown>;
      assert.equal(seen['com.example/tenant'], 't1');
      assert.equal(seen['traceparent'], traceparent);
      assert.deepEqual(
        Object.keys(seen).filter((k) => k.startsWith('io.modelcontextprotocol/')),
        [],
      );
      assert.notEqual(seen['progressToken'], sent['progressToken'], "upstream progress uses a token of the proxy's own");
    });

    it('keeps results intact: structuredContent, vendor _meta, unknown keys', async () => {
      const x = await exchange(live.setup.wire, 'tools/call', () => live.client.callTool({ name: 'structured', arguments: {} }));
      const r = x.response.result!;
      assert.deepEqual(r['structuredContent'], { n: 1 });
      assert.equal((r['_meta'] as Record<string, unknown>)['com.example/trace'], 'abc');
      assert.equal(r['x-extra'], true);
      assert.equal(r['resultType'], 'complete');
    });

    it('adds the content array 2026-07-28 requires when a legacy result lacks it', async () => {
      const x = await exchange(live.setup.wire, 'tools/call', () => live.client.callTool({ name: 'no-content', arguments: {} }));
      assert.deepEqual(x.response.result!['content'], []);
      assert.deepEqual(x.response.result!['structuredContent'], { ok: true });
    });

    it('translates legacy errors', async () => {
      const fail = (code: number) => errorOf(live.client.readResource({ uri: `fixture://fail/${code}` }));
      const notFound = await fail(-32002);
      assert.equal(notFound.code, -32602, 'resource not found is -32602 in 2026-07-28');
      assert.deepEqual(notFound.data, { uri: 'fixture://fail/-32002' });
      assert.match(notFound.message, /failure -32002$/);
      assert.doesNotMatch(notFound.message, /MCP error -32002/, 'the legacy SDK prefix is stripped');
      const reserved = await fail(-32050);
      assert.equal(reserved.code, -32603);
      assert.deepEqual(reserved.data, { upstreamCode: -32050, upstreamData: { uri: 'fixture://fail/-32050' } });
      const ordinary = await fail(-32600);
      assert.equal(ordinary.code, -32600);
      assert.match(ordinary.message, /failure -32600$/);
    });

    it('carries a cancellation to the legacy server, and keeps serving', async () => {
      const log = () => live.setup.log();
      const started = count(log(), /slow: started/);
      const cancelled = count(log(), /slow: cancelled/);
      const abort = new AbortController();
      const call = live.client.callTool({ name: 'slow', arguments: { ms: 20_000 } }, { signal: abort.signal });
      const outcome = call.then(
        () => 'answered',
        () => 'rejected',
      );
      await until(() => count(log(), /slow: started/) > started, 10_000, 'the slow call to start');
      abort.abort('user gave up');
      assert.equal(await outcome, 'rejected');
      await until(() => count(log(), /slow: cancelled/) > cancelled, 10_000, 'the cancellation to reach the legacy server');
      assert.equal(textOf(await live.client.callTool({ name: 'echo', arguments: { text: 'after' } })), 'echo: after');
    });

    defineRoundContract(live);

    // A stdio proxy serves the one client that started it: calls on one connection are kept apart in rounds.ts.
    if (front === 'http') {
      it('keeps concurrent interactive calls of several clients apart', async () => {
        await expectCallsKeptApart(live.setup.url!, ['Ann', 'Bob', 'Cy']);
      });
    }
  });
}
