// CPU time per pass-through call of the hop process, read from /proc/PID/stat around N sequential
// `tools/call echo`: the proxy against the minimal forwarder, each in front of the same legacy
// server. Latency mixes in scheduling on a small machine; CPU per call is what a hop costs.
// `--method ping` measures the proxy's front alone (it answers ping itself; the forwarder still
// forwards it). `--method flow` measures one interactive flow of the proxy (`ask-name`: the call, its
// input_required, the retry with the answer); the forwarder has no such flow and is left out. Not
// part of `npm run bench`; run it by hand when working on the hot path:
//
//   npm run build && node dist/bench/cpu-probe.js [http|stdio] [--calls N] [--rounds R]
//       [--method tools/call|ping|flow] [--concurrency C] [--caps all|none] [--node-args '--flag ...']
//       [--proxy-args '--access-log off ...']
//
// With --concurrency C, C clients each keep one call in flight (the legacy server's CPU is the same
// for both variants, so a hop whose CPU per call grows with C shows here).
import { readFileSync } from 'node:fs';
import { LegacyHttpClient, ProxyClient, ALL_CAPS } from './lib/http.js';
import { inParallel } from './lib/load.js';
import { FIXTURE, Scope } from './lib/procs.js';

const argv = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = argv.indexOf(name);
  return i === -1 ? def : argv[i + 1]!;
};

/** utime + stime of a process and its reaped children are not mixed: only the process itself. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function main(): Promise<void> {
  const transport = argv[0] === 'stdio' ? 'stdio' : 'http';
  const calls = Number(opt('--calls', '2000'));
  const rounds = Number(opt('--rounds', '3'));
  const method = opt('--method', 'tools/call');
  const concurrency = Number(opt('--concurrency', '1'));
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency: a positive integer, not ${opt('--concurrency', '1')}`);
  if (method !== 'tools/call' && method !== 'ping' && method !== 'flow') throw new Error(`--method: tools/call, ping or flow, not ${method}`);
  // The pass-through case's clients declare nothing; `all` adds roots, which over stdio leases exclusively.
  const caps = opt('--caps', 'all');
  if (caps !== 'all' && caps !== 'none') throw new Error(`--caps: all or none, not ${caps}`);
  const scope = new Scope();
  try {
    let target: string[];
    let forwarderArgs: string[];
    if (transport === 'http') {
      const fixture = await scope.fixtureHttp();
      target = ['--upstream', fixture.url];
      forwarderArgs = ['--target', fixture.url];
    } else {
      target = ['--', process.execPath, FIXTURE];
      forwarderArgs = ['--stdio', String(concurrency), '--', process.execPath, FIXTURE];
    }
    const forwarder = await scope.forwarder(forwarderArgs);
    const nodeArgs = opt('--node-args', '').split(' ').filter(Boolean);
    const proxyArgs = opt('--proxy-args', '').split(' ').filter(Boolean);
    const proxy = await scope.proxy(['--max-sessions', String(concurrency + 1), '--gather-window', '0', ...proxyArgs, ...target], { nodeArgs });
    const viaProxy = new ProxyClient(proxy.url, method === 'flow' ? ELICIT : caps === 'all' ? ALL_CAPS : {});
    // Over stdio the forwarder's children are initialized by the forwarder itself.
    const viaForwarder = transport === 'http' ? await new LegacyHttpClient(forwarder.url).init() : new LegacyHttpClient(forwarder.url);
    const variants: Array<[string, number, () => Promise<unknown>]> =
      method === 'flow'
        ? [['mrtr-proxy', proxy.child.pid!, () => flow(viaProxy)]]
        : method === 'ping'
          ? [
              ['forwarder', forwarder.child.pid!, () => viaForwarder.request('ping')],
              ['mrtr-proxy', proxy.child.pid!, () => viaProxy.call('ping', {})],
            ]
          : [
              ['forwarder', forwarder.child.pid!, () => viaForwarder.tool('echo', { text: 'hello' })],
              ['mrtr-proxy', proxy.child.pid!, () => viaProxy.tool('echo', { text: 'hello' })],
            ];
    process.stdout.write(`${transport} upstream, ${method}, ${calls} calls per round, ${concurrency} at a time; CPU of the hop process only\n`);
    const run = (n: number, call: () => Promise<unknown>) => inParallel(n, concurrency, call);
    for (let r = 1; r <= rounds; r++) {
      const line: string[] = [];
      for (const [name, pid, call] of variants) {
        await run(200, call);
        const before = cpuMs(pid);
        const t0 = performance.now();
        await run(calls, call);
        const wallUs = ((performance.now() - t0) / calls) * 1000;
        const cpuUs = ((cpuMs(pid) - before) / calls) * 1000;
        line.push(`${name} ${cpuUs.toFixed(0)} µs CPU, ${wallUs.toFixed(0)} µs wall`);
      }
      process.stdout.write(`round ${r}: ${line.join(' | ')}\n`);
    }
  } finally {
    await scope.close();
  }
}

const ANSWER = { action: 'accept', content: { name: 'Ada' } };
/** A flow's client declares form elicitation only (with roots the proxy would ask for them first). */
const ELICIT = { elicitation: { form: {} } };

/** One interactive flow: `ask-name`, then its retry with the answer. */
async function flow(client: ProxyClient): Promise<void> {
  const round = await client.tool('ask-name', { greeting: 'Hello' });
  const requests = round['inputRequests'] as Record<string, unknown> | undefined;
  const key = requests ? Object.keys(requests)[0] : undefined;
  if (round['resultType'] !== 'input_required' || key === undefined) throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  const done = await client.tool('ask-name', { greeting: 'Hello' }, { requestState: round['requestState'], inputResponses: { [key]: ANSWER } });
  if ((done['content'] as Array<{ text?: string }> | undefined)?.[0]?.text !== 'Hello, Ada!') throw new Error(`flow answered wrongly: ${JSON.stringify(done)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
