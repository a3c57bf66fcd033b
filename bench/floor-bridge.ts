// The floor: the least a Node bridge can do for the proxy's job, kept to measure the proxy's CPU
// per operation against (cases/budget.ts). It speaks 2026-07-28 to one client over stdio
// (`--stdio`, JSON lines, any number of requests in flight) or to any number over HTTP (`--http`,
// one JSON-RPC POST, one JSON answer), runs one legacy stdio child initialized once, and:
//  - forwards a `tools/call` to the child and its result back, marked `resultType: complete`;
//  - when the child asks mid-call (`elicitation/create` and the like), answers the client with
//    `input_required`, the question and a `requestState` sealed as a JWE (floor-state.ts), and keeps
//    the legacy call suspended;
//  - on the retry (`requestState` + `inputResponses`) opens the state, checks that it belongs to the
//    same tool and arguments and has not been used, answers the legacy request, and returns what the
//    call does next (its result, or its next question).
// A legacy server's question over stdio names no call, so only one call that may ask runs on the
// child at a time (the runner slot, which a question or the result frees); a tool seen completing
// without asking is not expected to ask, and its calls run beside it. No SDK, no validation of the
// legacy server's messages, no auth, no telemetry, no logs: a floor, not a product.
//
//   node dist/bench/floor-bridge.js --http [--port N] | --stdio  -- <legacy command> [args...]
//   --http prints `floor listening on http://127.0.0.1:PORT/mcp` on stderr, --stdio `floor ready`.
//   FLOOR_STATE_KEY: the sealing key (32 bytes, base64url); a random one by default.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { AddressInfo } from 'node:net';
import { openState, sealState } from './floor-state.js';

// biome-ignore lint/suspicious/noExplicitAny: the floor reads wire messages without validation, as a minimal bridge would.
type Json = Record<string, any>;
type Outcome = { result: Json } | { error: Json } | { question: Json };

interface LegacyCall {
  tool: string;
  asked: boolean;
  /** The front request waiting for what the call does next, if one is. */
  waiter?: (o: Outcome) => void;
  /** What the call did while no front request was waiting (it finished after asking). */
  early?: Outcome;
}

interface Suspension {
  call: LegacyCall;
  questionId: unknown;
  key: string;
  fingerprint: string;
  expires: number;
}

const PROTOCOL = '2026-07-28';
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const STATE_TTL_MS = 5 * 60_000;
const MAX_SUSPENDED = 10_000;
const MAX_BODY_BYTES = 4 * 2 ** 20;

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const command = dashes === -1 ? [] : argv.slice(dashes + 1);
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const front = own.includes('--stdio') ? 'stdio' : own.includes('--http') ? 'http' : undefined;
if (!front || command.length === 0) {
  process.stderr.write('usage: floor-bridge --http [--port N] | --stdio -- <legacy command> [args...]\n');
  process.exit(2);
}
const key = process.env['FLOOR_STATE_KEY'] ? Buffer.from(process.env['FLOOR_STATE_KEY'], 'base64url') : randomBytes(32);
if (key.length !== 32) throw new Error('FLOOR_STATE_KEY: expected 32 bytes in base64url');

// The legacy child, one JSON line per message.
const child = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => {
  process.stderr.write(`floor: the legacy server exited (${code})\n`);
  process.exit(1);
});
const toChild = (m: Json) => child.stdin.write(`${JSON.stringify(m)}\n`);
/** Legacy request id → what to do with its response. */
const pending = new Map<unknown, (m: Json) => void>();
let nextId = 0;

createInterface({ input: child.stdout }).on('line', (line) => {
  let m: Json;
  try {
    m = JSON.parse(line) as Json;
  } catch {
    return; // a banner on stdout
  }
  if (typeof m['method'] === 'string') {
    if (m['id'] !== undefined) onQuestion(m);
    return; // notifications are dropped
  }
  const done = pending.get(m['id']);
  pending.delete(m['id']);
  done?.(m);
});

function control(method: string, params: Json): Promise<Json> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, (r) => (r['error'] ? reject(new Error(`${method}: ${JSON.stringify(r['error'])}`)) : resolve(r['result'] as Json)));
    toChild({ jsonrpc: '2.0', id, method, params });
  });
}

// The runner slot: the one call that may ask and is running on the child.
let runner: LegacyCall | undefined;
const queue: Array<() => void> = [];
const asking = new Set<string>();
const quiet = new Set<string>();

function takeSlot(call: LegacyCall): Promise<void> {
  if (!runner) {
    runner = call;
    return Promise.resolve();
  }
  return new Promise((resolve) =>
    queue.push(() => {
      runner = call;
      resolve();
    }),
  );
}

function releaseSlot(call: LegacyCall): void {
  if (runner !== call) return;
  runner = undefined;
  queue.shift()?.();
}

function deliver(call: LegacyCall, o: Outcome): void {
  const w = call.waiter;
  call.waiter = undefined;
  if (w) w(o);
  else call.early = o;
}

function next(call: LegacyCall): Promise<Outcome> {
  const early = call.early;
  call.early = undefined;
  return early ? Promise.resolve(early) : new Promise((resolve) => (call.waiter = resolve));
}

function onQuestion(q: Json): void {
  const call = runner;
  if (!call) {
    // A tool thought quiet asked beside other calls: which call asked cannot be known.
    quiet.clear();
    toChild({ jsonrpc: '2.0', id: q['id'], error: { code: -32603, message: 'floor: a question no running call can own' } });
    return;
  }
  call.asked = true;
  asking.add(call.tool);
  quiet.delete(call.tool);
  releaseSlot(call);
  deliver(call, { question: q });
}

const suspensions = new Map<string, Suspension>();
setInterval(() => {
  const now = Date.now();
  for (const [handle, s] of suspensions) {
    if (s.expires > now) continue;
    suspensions.delete(handle);
    toChild({ jsonrpc: '2.0', id: s.questionId, error: { code: -32603, message: 'floor: the client did not answer in time' } });
  }
}, 10_000).unref();

/** Binds a state to its request: a retry must name the same tool with the same arguments. */
const fingerprintOf = (tool: string, args: unknown) =>
  createHash('sha256')
    .update(`${tool}\n${JSON.stringify(args)}`)
    .digest('base64url');

async function handle(m: Json): Promise<Json | undefined> {
  if (m['id'] === undefined) return undefined; // notifications (cancellation included) are not handled
  const id = m['id'];
  const fail = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
  const p = m['params'] as Json | undefined;
  if (m['jsonrpc'] !== '2.0' || typeof m['method'] !== 'string' || typeof p !== 'object' || p === null) return fail(-32600, 'Invalid Request');
  if (p['_meta']?.[VERSION_META] !== PROTOCOL) return fail(-32022, `Unsupported protocol version (expected ${PROTOCOL} in _meta)`);
  if (m['method'] === 'tools/list') return { jsonrpc: '2.0', id, result: { ...(await control('tools/list', {})), resultType: 'complete' } };
  if (m['method'] !== 'tools/call') return fail(-32601, 'Method not found');
  const tool = p['name'];
  if (typeof tool !== 'string') return fail(-32602, 'params.name: expected a string');
  const args = p['arguments'] ?? {};
  const fingerprint = fingerprintOf(tool, args);
  let call: LegacyCall;
  if (p['requestState'] === undefined) {
    call = { tool, asked: false };
    const mayAsk = !quiet.has(tool);
    if (mayAsk) await takeSlot(call);
    const legacyId = ++nextId;
    pending.set(legacyId, (r) => {
      releaseSlot(call);
      if (!call.asked && !asking.has(call.tool)) quiet.add(call.tool);
      deliver(call, r['error'] ? { error: r['error'] as Json } : { result: r['result'] as Json });
    });
    toChild({ jsonrpc: '2.0', id: legacyId, method: 'tools/call', params: { name: tool, arguments: args } });
  } else {
    const claims = openState(key, p['requestState']);
    if (!claims || claims.e < Date.now()) return fail(-32602, 'requestState is malformed, not ours, or expired');
    if (claims.f !== fingerprint) return fail(-32602, 'requestState belongs to another request');
    const s = suspensions.get(claims.s);
    if (!s) return fail(-32602, 'requestState was already used');
    const answer = (p['inputResponses'] as Json | undefined)?.[s.key];
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return fail(-32602, `inputResponses.${s.key}: expected an object`);
    suspensions.delete(claims.s);
    call = s.call;
    await takeSlot(call);
    toChild({ jsonrpc: '2.0', id: s.questionId, result: answer });
  }
  const o = await next(call);
  if ('result' in o) return { jsonrpc: '2.0', id, result: { ...o.result, resultType: 'complete' } };
  if ('error' in o) return { jsonrpc: '2.0', id, error: o.error };
  if (suspensions.size >= MAX_SUSPENDED) {
    toChild({ jsonrpc: '2.0', id: o.question['id'], error: { code: -32603, message: 'floor: too many calls waiting' } });
    return fail(-32603, 'too many calls waiting for an answer');
  }
  const handleId = randomBytes(12).toString('base64url');
  const expires = Date.now() + STATE_TTL_MS;
  const inputKey = `q${String(o.question['id'])}`;
  suspensions.set(handleId, { call, questionId: o.question['id'], key: inputKey, fingerprint, expires });
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'input_required',
      inputRequests: { [inputKey]: { method: o.question['method'], params: o.question['params'] } },
      requestState: sealState(key, { s: handleId, f: fingerprint, e: expires }),
    },
  };
}

const parseError = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };

/** `handle`, with a failure (the child refused a forwarded request) answered as an internal error. */
const answerTo = (m: Json): Promise<Json | undefined> =>
  handle(m).catch((err: unknown) =>
    m['id'] === undefined ? undefined : { jsonrpc: '2.0', id: m['id'], error: { code: -32603, message: String((err as Error)?.message ?? err) } },
  );

async function main(): Promise<void> {
  await control('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'floor-bridge', version: '1' },
  });
  toChild({ jsonrpc: '2.0', method: 'notifications/initialized' });
  if (front === 'stdio') {
    const write = (m: Json) => process.stdout.write(`${JSON.stringify(m)}\n`);
    createInterface({ input: process.stdin }).on('line', (line) => {
      if (!line.trim()) return;
      let m: Json;
      try {
        m = JSON.parse(line) as Json;
      } catch {
        return void write(parseError);
      }
      void answerTo(m).then((out) => out && write(out));
    });
    process.stdin.on('end', () => process.exit(0));
    process.stderr.write('floor ready\n');
    return;
  }
  const server = http.createServer((req, res) => {
    const answer = (status: number, body?: Json) => {
      if (!body) return void res.writeHead(status).end();
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    };
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let m: Json;
      try {
        m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      } catch {
        return answer(400, parseError);
      }
      const named = req.headers['mcp-method'];
      if (named !== undefined && named !== m['method'])
        return answer(400, { jsonrpc: '2.0', id: m['id'] ?? null, error: { code: -32020, message: 'Mcp-Method does not match the body' } });
      void answerTo(m).then((out) => answer(out ? 200 : 202, out));
    });
  });
  server.keepAliveTimeout = 60_000;
  const portAt = own.indexOf('--port');
  server.listen(portAt === -1 ? 0 : Number(own[portAt + 1]), '127.0.0.1', () => {
    process.stderr.write(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
  });
}

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
process.on('exit', () => child.kill('SIGKILL'));
main().catch((err: unknown) => {
  process.stderr.write(`floor: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
