// The `npm start` demo end to end: examples/start-demo.mjs starts the proxy in front of the legacy
// demo server, prints a guide with the real port, the official 2026-07-28 client runs every demo
// tool through input_required rounds, a raw HTTP exchange follows the guide's curl steps, and
// SIGTERM takes down the proxy and every demo server it spawned.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runClientDemo } from '../../examples/client-demo.js';
import { alive, descendants } from '../support/process-tree.js';

// dist/test/e2e/demo.test.js -> the project root.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let demo: ChildProcess | undefined;
const seen = new Set<number>();

async function waitFor<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(25);
  }
}

after(async () => {
  // Whatever happened above, leave no process behind.
  if (demo?.pid !== undefined && demo.exitCode === null && demo.signalCode === null) {
    for (const d of descendants(demo.pid)) seen.add(d.pid);
    demo.kill('SIGKILL');
  }
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** One 2026-07-28 tools/call over plain HTTP, as the guide's curl commands send it; returns the JSON-RPC result. */
async function rawCall(url: string, id: number, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'book_table',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'book_table',
        arguments: { name: 'Ada' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
        ...extra,
      },
    }),
  });
  assert.equal(res.status, 200);
  const body = await res.text();
  // SSE for interactive methods: the response is the last `data:` line.
  const data = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .at(-1)
        ?.slice(6)
    : body;
  const message = JSON.parse(data ?? 'null') as { id?: unknown; result?: Record<string, unknown>; error?: unknown };
  assert.equal(message.id, id);
  assert.ok(message.result, `expected a result, got ${data}`);
  return message.result;
}

test('npm start demo: guide, client demo through the proxy, clean SIGTERM shutdown', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, ['examples/start-demo.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demo = child;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  // 1. The guide appears with the port the proxy really bound (PORT=0 means "any free port").
  const url = await waitFor('the guide on stdout', 15_000, () => {
    if (child.exitCode !== null) throw new Error(`start-demo exited early (${child.exitCode}):\n${stderr}`);
    return stdout.includes('Ctrl-C stops') ? /Endpoint:\s+(http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(stdout)?.[1] : undefined;
  });
  const port = Number(new URL(url).port);
  assert.ok(port > 0, `guide shows a real port: ${url}`);
  assert.match(stderr, new RegExp(`listening on ${url.replace(/[.:/]/g, '\\$&')}`), 'proxy log passed through to stderr');
  assert.ok(stdout.includes(`curl -sN -w '\\n' ${url}`), 'guide has copy-pasteable curl commands for the real URL');
  for (const piece of [
    'Mcp-Method: server/discover',
    'Mcp-Method: tools/call',
    'Mcp-Name: book_table',
    'MCP-Protocol-Version: 2026-07-28',
    '"inputResponses"',
    '"requestState"',
  ]) {
    assert.ok(stdout.includes(piece), `guide mentions ${piece}`);
  }

  // 2. The official 2026-07-28 client runs every tool; answers flow back into the legacy handlers.
  const lines: string[] = [];
  const run = await runClientDemo(url, { print: (l) => lines.push(l), roots: [{ uri: 'file:///demo/project', name: 'demo project' }] });
  assert.deepEqual(run.tools.slice().sort(), ['add', 'book_table', 'plan_trip', 'project_files', 'summarize']);
  assert.equal(run.results['add'], '2 + 40 = 42');
  assert.equal(run.results['book_table'], 'Booked: a table for 4 at 19:30 for Ada. Reference TBL-041930.');
  assert.equal(run.results['summarize'], 'Summary (by canned-model-1): A legacy server and a modern client got along thanks to a proxy.');
  assert.match(run.results['project_files'] ?? '', /^demo project: file:\/\/\/demo\/project\n {2}\(cannot read it here: ENOENT\)$/);
  assert.equal(
    run.results['plan_trip'],
    'Trip plan: 5 days in Lisbon, comfortable budget.\nMust do: Take the funicular up at sunset\nNotes: window seat on the train, please',
  );
  assert.deepEqual(run.asked, { 'elicitation/create': 4, 'sampling/createMessage': 2, 'roots/list': 1 });
  // plan_trip's parallel elicitation + sampling arrive together in one round, then the follow-up.
  assert.deepEqual(run.rounds, { add: 0, book_table: 2, summarize: 1, project_files: 1, plan_trip: 2 });
  assert.match(run.prompt, /inviting Grace to dinner at Trattoria MCP at 19:30/);
  assert.match(run.resource, /Trattoria MCP: tonight's menu/);

  // 3. The guide's raw HTTP steps work as printed: input_required, retry, confirm.
  const first = await rawCall(url, 2, {});
  assert.equal(first['resultType'], 'input_required');
  const asks = first['inputRequests'] as Record<string, { method: string }>;
  assert.deepEqual(Object.keys(asks), ['elicitation-1']);
  assert.equal(asks['elicitation-1']?.method, 'elicitation/create');
  assert.equal(typeof first['requestState'], 'string');
  const second = await rawCall(url, 3, {
    inputResponses: { 'elicitation-1': { action: 'accept', content: { partySize: 6, time: '20:15' } } },
    requestState: first['requestState'],
  });
  assert.equal(second['resultType'], 'input_required');
  assert.deepEqual(Object.keys(second['inputRequests'] as object), ['elicitation-2']);
  const done = await rawCall(url, 4, {
    inputResponses: { 'elicitation-2': { action: 'accept', content: { confirm: true } } },
    requestState: second['requestState'],
  });
  assert.deepEqual(done['structuredContent'], { partySize: 6, time: '20:15', reference: 'TBL-062015' });

  // 4. SIGTERM: forwarded to the proxy, which stops every demo server it started, then exits 0.
  const tree = descendants(child.pid!);
  for (const p of tree) seen.add(p.pid);
  const proxies = tree.filter((p) => p.args.includes('bin/mrtr-proxy.js'));
  const servers = tree.filter((p) => p.args.includes('dist/examples/demo-server.js'));
  assert.equal(proxies.length, 1, `one proxy under start-demo: ${JSON.stringify(tree)}`);
  assert.ok(servers.length >= 1, `demo servers under the proxy: ${JSON.stringify(tree)}`);

  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([exited, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 8_000)))]);
  clearTimeout(timer);
  assert.ok(exit, `start-demo did not exit within 8 s after SIGTERM:\n${stderr.slice(-2000)}`);
  assert.deepEqual(exit, { code: 0, signal: null }, `start-demo exit:\n${stderr.slice(-2000)}`);
  const logged = stderr.split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  assert.ok(
    logged.some((l) => l['message'] === 'shutting down' && l['signal'] === 'SIGTERM'),
    'the proxy got the forwarded SIGTERM',
  );
  await waitFor('the proxy and demo servers to be gone', 5_000, () => (tree.every((p) => !alive(p.pid)) ? true : undefined)).catch(() => {
    const left = tree.filter((p) => alive(p.pid));
    assert.fail(`processes left behind after SIGTERM: ${JSON.stringify(left)}`);
  });
});
