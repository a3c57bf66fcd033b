// The 2026-07-28 bridges the budget and mcp-uplift cases compare, each in front of the same legacy
// stdio server (the test fixture), with the one client each case drives: the floor (floor-bridge.ts),
// mrtr-proxy at its default flags, and mcp-uplift. Over stdio the client launches the bridge and
// keeps any number of requests in flight on its one connection; over HTTP it POSTs to it.
import { FIXTURE, PROXY_BIN, BENCH_DIST, type Scope, TEST_STATE_KEY } from './procs.js';
import { ProxyClient, ProxyStdioClient, type Json } from './http.js';
import { closedLoop } from './load.js';
import { cpuMsOf } from './cpu.js';
import { cpuUsPerOp } from './budget.js';

export type Front = 'stdio' | 'http';
export const FLOOR = `${BENCH_DIST}floor-bridge.js`;
export const ELICIT = { elicitation: { form: {} } };
const ANSWER = { action: 'accept', content: { name: 'Ada' } };

export interface Bridge {
  name: string;
  /** The bridge process (its CPU is the bridge's; its legacy children are not counted). */
  pid: number;
  client: ProxyClient | ProxyStdioClient;
}

const LEGACY = [process.execPath, FIXTURE];

function overStdio(scope: Scope, name: string, args: string[], env: NodeJS.ProcessEnv = {}): Bridge {
  const client = new ProxyStdioClient(process.execPath, args, env, ELICIT);
  scope.defer(() => client.close());
  if (client.pid === undefined) throw new Error(`${name}: could not be started`);
  return { name, pid: client.pid, client };
}

export async function startFloor(scope: Scope, front: Front): Promise<Bridge> {
  if (front === 'stdio') return overStdio(scope, 'floor', [FLOOR, '--stdio', '--', ...LEGACY]);
  const p = await scope.start(process.execPath, [FLOOR, '--http', '--', ...LEGACY], /floor listening on (http:\/\/\S+)/);
  return { name: 'floor', pid: p.child.pid!, client: new ProxyClient(p.ready, ELICIT) };
}

export async function startProxy(scope: Scope, front: Front): Promise<Bridge> {
  if (front === 'stdio') return overStdio(scope, 'mrtr-proxy', [PROXY_BIN, '--stdio', '--', ...LEGACY], { MRTR_STATE_KEY: TEST_STATE_KEY });
  const p = await scope.proxy(['--', ...LEGACY]);
  return { name: 'mrtr-proxy', pid: p.child.pid!, client: new ProxyClient(p.url, ELICIT) };
}

/** mcp-uplift's command line (`src/cli.js` of a checkout); stdio only. */
export function startUplift(scope: Scope, dir: string): Bridge {
  return overStdio(scope, 'mcp-uplift', [`${dir}/src/cli.js`, '--', ...LEGACY]);
}

/** One pass-through `tools/call` of the fixture's `echo`, its answer checked. */
export async function passCall(b: Bridge, n: number): Promise<void> {
  const text = `c${n}`;
  const r = await b.client.tool('echo', { text });
  if ((r['content'] as Array<{ text?: string }> | undefined)?.[0]?.text !== `echo: ${text}`)
    throw new Error(`${b.name}: echo answered wrongly: ${JSON.stringify(r)}`);
}

/** One interactive flow: `ask-name`, its `input_required`, the retry with the answer, the result, all checked. */
export async function flow(b: Bridge, n: number): Promise<void> {
  const greeting = `g${n}`;
  const round = await b.client.tool('ask-name', { greeting });
  if (round['resultType'] !== 'input_required') throw new Error(`${b.name}: expected input_required, got ${JSON.stringify(round)}`);
  const requests = round['inputRequests'] as Json;
  const keys = Object.keys(requests);
  if (keys.length !== 1 || requests[keys[0]!]?.method !== 'elicitation/create')
    throw new Error(`${b.name}: expected one elicitation, got ${JSON.stringify(requests)}`);
  const done = await b.client.tool('ask-name', { greeting }, { requestState: round['requestState'], inputResponses: { [keys[0]!]: ANSWER } });
  const text = (done['content'] as Array<{ text?: string }> | undefined)?.[0]?.text;
  if (text !== `${greeting}, Ada!`) throw new Error(`${b.name}: flow answered wrongly: ${JSON.stringify(done)}`);
}

export type Operation = (b: Bridge, n: number) => Promise<void>;

export interface Sample {
  /** Operations completed in the window (a flow is one operation of two requests). */
  ops: number;
  throughput: number;
  /** p50 of one operation, ms. */
  p50: number;
  /** The bridge process's CPU per operation, µs. */
  cpuUs: number;
  /** Operations that failed or answered wrongly (not counted in `ops`), and the first failure. */
  failed: number;
  firstFailure?: string;
}

let seq = 0;

/**
 * `clients` closed-loop clients running `op` on `b` for `windowMs`, with the bridge's CPU read around
 * it. A failed or wrong answer is counted and said on stderr, not hidden (more than 50 end the run).
 */
export async function measure(b: Bridge, op: Operation, clients: number, windowMs: number): Promise<Sample> {
  let firstFailure: string | undefined;
  const checked = async () => {
    try {
      await op(b, ++seq);
    } catch (err) {
      firstFailure ??= String((err as Error)?.message ?? err).slice(0, 300);
      throw err;
    }
  };
  const before = cpuMsOf(b.pid);
  const load = await closedLoop(
    Array.from({ length: clients }, () => checked),
    windowMs,
  );
  const after = cpuMsOf(b.pid);
  if (firstFailure !== undefined) process.stderr.write(`*** ${b.name}: ${load.errors} operations failed; the first: ${firstFailure}\n`);
  return {
    ops: load.calls,
    throughput: load.throughput,
    p50: load.p50,
    cpuUs: cpuUsPerOp(before, after, load.calls),
    failed: load.errors,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}
