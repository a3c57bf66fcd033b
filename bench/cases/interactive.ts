// Case 2: one interactive round. The same HTTP fixture answers `echo` at once and `ask-name` after
// one form elicitation. Measured in the same run:
//   over the wire, through mrtr-proxy (raw 2026-07-28 client, --gather-window 0): echo vs ask-name
//     (input_required + retry with the answer + resumed call), each leg timed;
//   over the wire, directly (v1 SDK client answering elicitation/create itself): echo vs ask-name,
//     what the same round costs natively in the legacy protocol;
//   in process: createSealer seal/open (many iterations), and the Bridge itself (dist/src) driven
//     by a fake in-memory legacy session, asking vs not asking: the proxy's own CPU per round.
// The split: seal and unseal from the microbenchmark; resume = bridge round CPU minus seal and
// unseal; wire = the end-to-end extra through the proxy minus those three.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ALL_CAPS, ProxyClient, type Json } from '../lib/http.js';
import { Scope } from '../lib/procs.js';
import { ANSWER, bridgeCosts, sealCosts } from './interactive-micro.js';
import { fmt, median, pairedDiff, pairedRatio, summarize, type Summary } from '../lib/stats.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

/** How long `fn` took (ms). */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Medians of `a` and `b` run alternately `n` times each (ms). */
async function interleavedMedians(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    xs.push(await timed(a));
    ys.push(await timed(b));
  }
  return [median(xs), median(ys)];
}

async function sdkClient(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  c.setRequestHandler(ElicitRequestSchema, async () => ANSWER as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

export async function interactive(opts: BenchOptions): Promise<CaseResult> {
  const quick = opts.quick;
  const iterations = quick ? 150 : 500;
  const repeats = quick ? 3 : 5;
  const microN = quick ? 3000 : 20000;
  const scope = new Scope();
  const wire = {
    proxyEcho: [] as number[],
    proxyAsk: [] as number[],
    askLeg1: [] as number[],
    askLeg2: [] as number[],
    directEcho: [] as number[],
    directAsk: [] as number[],
    proxyAskDefaultWindow: [] as number[],
    proxyAskBeside: [] as number[],
  };
  const micro = { seal: [] as number[], unseal: [] as number[], bridgeEcho: [] as number[], bridgeAsk: [] as number[] };
  let tokenChars = 0;
  try {
    const fixture = await scope.fixtureHttp();
    const proxy = await scope.proxy(['--upstream', fixture.url, '--gather-window', '0']);
    const proxyDefault = await scope.proxy(['--upstream', fixture.url]);
    const direct = await sdkClient(fixture.url);
    scope.defer(() => direct.close());
    const pc = new ProxyClient(proxy.url, ALL_CAPS);
    const pcDefault = new ProxyClient(proxyDefault.url, ALL_CAPS);
    const legs = { a: 0, b: 0 };
    const round = async (c: ProxyClient) => {
      const t0 = performance.now();
      const r = await c.tool('ask-name', {});
      const t1 = performance.now();
      const key = Object.keys(r['inputRequests'] as Json)[0]!;
      const done = await c.tool('ask-name', {}, { requestState: r['requestState'], inputResponses: { [key]: ANSWER } });
      legs.a = t1 - t0;
      legs.b = performance.now() - t1;
      if (done['resultType'] !== 'complete') throw new Error(`round did not complete: ${JSON.stringify(done)}`);
    };
    const medianOf = async (n: number, fn: () => Promise<unknown>, after?: (xs: number[]) => void) => {
      const xs: number[] = [];
      const l1: number[] = [];
      const l2: number[] = [];
      for (let i = 0; i < n; i++) {
        xs.push(await timed(fn));
        l1.push(legs.a);
        l2.push(legs.b);
      }
      after?.([median(l1), median(l2)]);
      return median(xs);
    };
    // Warm-up: sessions, JIT, tool schemas.
    // Both proxies get the same warm-up, so that the window's cost below compares them in the same state.
    for (let i = 0; i < 50; i++) {
      await pc.tool('echo', { text: 'hello' });
      await round(pc);
      await pcDefault.tool('echo', { text: 'hello' });
      await round(pcDefault);
      await direct.callTool({ name: 'echo', arguments: { text: 'hello' } });
      await direct.callTool({ name: 'ask-name', arguments: {} });
    }
    // The window's cost first, while both proxies have the same history (the warm-up above, then
    // only these rounds), with their rounds interleaved so both see the same machine. Measured after
    // the rounds below, the default-window proxy would have sat idle while the other served
    // thousands, and a V8 left idle shrinks its heap and cools its code (+1 to 2 ms a round measured).
    for (let r = 0; r < repeats; r++) {
      const [beside, withWindow] = await interleavedMedians(
        Math.round(iterations / 5),
        () => round(pc),
        () => round(pcDefault),
      );
      wire.proxyAskBeside.push(beside);
      wire.proxyAskDefaultWindow.push(withWindow);
    }
    for (let r = 0; r < repeats; r++) {
      wire.proxyEcho.push(await medianOf(iterations, () => pc.tool('echo', { text: 'hello' })));
      wire.proxyAsk.push(
        await medianOf(
          iterations,
          () => round(pc),
          ([a, b]) => {
            wire.askLeg1.push(a!);
            wire.askLeg2.push(b!);
          },
        ),
      );
      wire.directEcho.push(await medianOf(iterations, () => direct.callTool({ name: 'echo', arguments: { text: 'hello' } })));
      wire.directAsk.push(await medianOf(iterations, () => direct.callTool({ name: 'ask-name', arguments: {} })));
      const s = await sealCosts(microN);
      micro.seal.push(s.seal);
      micro.unseal.push(s.unseal);
      tokenChars = s.tokenChars;
      const b = await bridgeCosts(Math.round(microN / 4));
      micro.bridgeEcho.push(b.echo);
      micro.bridgeAsk.push(b.ask);
      opts.log(
        `  interactive repeat ${r + 1}/${repeats}: proxy echo ${wire.proxyEcho.at(-1)!.toFixed(3)} ms, proxy round ${wire.proxyAsk.at(-1)!.toFixed(3)} ms, direct echo ${wire.directEcho.at(-1)!.toFixed(3)} ms, direct round ${wire.directAsk.at(-1)!.toFixed(3)} ms, seal ${(s.seal * 1000).toFixed(1)} µs, open ${(s.unseal * 1000).toFixed(1)} µs, bridge round ${((b.ask - b.echo) * 1000).toFixed(1)} µs`,
      );
    }
  } finally {
    await scope.close();
  }
  const extraProxy = pairedDiff(wire.proxyAsk, wire.proxyEcho);
  const extraDirect = pairedDiff(wire.directAsk, wire.directEcho);
  const extraRatio = pairedRatio(extraProxy.runs, extraDirect.runs);
  const windowCost = pairedDiff(wire.proxyAskDefaultWindow, wire.proxyAskBeside);
  const bridgeRound = pairedDiff(micro.bridgeAsk, micro.bridgeEcho);
  const sealUnseal = micro.seal.map((s, i) => s + micro.unseal[i]!);
  const resume = pairedDiff(bridgeRound.runs, sealUnseal);
  const proxyTime = bridgeRound; // seal + unseal + resume
  const wireTime = pairedDiff(extraProxy.runs, proxyTime.runs);
  const us = (s: Summary) => summarize(s.runs.map((x) => x * 1000));
  const split = {
    seal: us(summarize(micro.seal)),
    unseal: us(summarize(micro.unseal)),
    resume: us(resume),
    proxyTime: us(proxyTime),
    wire: us(wireTime),
  };
  const tables = [
    {
      title: 'One interactive round (elicitation) against the same tool answering without asking, median (min–max) over repeats',
      columns: ['measurement', 'ms'],
      rows: [
        ['through mrtr-proxy: echo (no question)', fmt(summarize(wire.proxyEcho), 3)],
        ['through mrtr-proxy: ask-name round (2 requests)', fmt(summarize(wire.proxyAsk), 3)],
        ['  leg 1: call -> input_required', fmt(summarize(wire.askLeg1), 3)],
        ['  leg 2: retry -> resumed call completes', fmt(summarize(wire.askLeg2), 3)],
        ['  extra for the round (round - echo)', fmt(extraProxy, 3)],
        ['direct, v1 SDK client: echo', fmt(summarize(wire.directEcho), 3)],
        ['direct, v1 SDK client: ask-name (elicitation over SSE + POST)', fmt(summarize(wire.directAsk), 3)],
        ['  extra for the round natively (ask-name - echo)', fmt(extraDirect, 3)],
        ['  extra through mrtr-proxy / extra natively (paired)', fmt(extraRatio)],
        ['through mrtr-proxy, rounds interleaved: --gather-window 0', fmt(summarize(wire.proxyAskBeside), 3)],
        ['  the same, with the default gather window', fmt(summarize(wire.proxyAskDefaultWindow), 3)],
        ['  default gather window minus --gather-window 0 (paired)', fmt(windowCost, 3)],
      ],
      notes: [
        `${iterations} sequential rounds per repeat, ${repeats} repeats; --gather-window 0 unless stated (the default closes a round once the legacy session is quiet for 1 ms, at most 25 ms after its first request).`,
      ],
    },
    {
      title: 'Where the extra time of a round goes (µs), median (min–max) over repeats',
      columns: ['part', 'µs', 'how it is measured'],
      rows: [
        ['seal (JWE encrypt)', fmt(split.seal, 1), `createSealer().seal, ${microN} iterations in process`],
        ['unseal (JWE decrypt + checks)', fmt(split.unseal, 1), `createSealer().open, ${microN} iterations in process`],
        ['resume (bridge bookkeeping)', fmt(split.resume, 1), 'in-process Bridge round (fake session) minus echo, minus seal and unseal'],
        ['proxy time per round (sum)', fmt(split.proxyTime, 1), 'in-process Bridge: ask round minus echo'],
        ['wire (2nd HTTP exchange, front SDK, legacy SSE+POST)', fmt(split.wire, 1), 'end-to-end extra through the proxy minus proxy time'],
      ],
      notes: [`requestState is ${tokenChars} characters.`],
    },
  ];
  const charts = [
    {
      kind: 'bars' as const,
      title: '2. One elicitation round: extra time over the same call without a question',
      unit: 'ms',
      groups: [
        { label: 'extra, through mrtr-proxy', bars: [{ label: 'end to end', value: extraProxy.median, min: extraProxy.min, max: extraProxy.max }] },
        { label: 'extra, direct (legacy SSE)', bars: [{ label: 'end to end', value: extraDirect.median, min: extraDirect.min, max: extraDirect.max }] },
        {
          label: 'split (proxy)',
          bars: (['seal', 'unseal', 'resume', 'wire'] as const).map((k) => ({
            label: k,
            value: split[k].median / 1000,
            min: split[k].min / 1000,
            max: split[k].max / 1000,
          })),
        },
      ],
    },
  ];
  return {
    name: 'interactive',
    tables,
    charts,
    data: {
      iterations,
      repeats,
      microIterations: microN,
      wireMs: wire,
      microMs: micro,
      extraProxyMs: extraProxy,
      extraDirectMs: extraDirect,
      extraRatio,
      defaultWindowCostMs: windowCost,
      splitUs: split,
      requestStateChars: tokenChars,
    },
  };
}
