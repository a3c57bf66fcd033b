// Profiles mrtr-proxy under the pass-through load: starts it with `node --cpu-prof`, drives
// tools/call echo through it, stops it, and prints the hottest functions (self and inclusive time)
// with file:line. Not part of `npm run bench`; run it by hand:
//
//   npm run build && node dist/bench/profile.js [http|stdio] [--concurrency N] [--seconds S] [--tool NAME] [--proxy-args '...']
//
// The proxy runs with `--max-sessions N+1 --gather-window 0` unless `--proxy-args` says otherwise
// (`--proxy-args ''`: its defaults).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ProxyClient, ALL_CAPS } from './lib/http.js';
import { closedLoop } from './lib/load.js';
import { FIXTURE, ROOT, Scope } from './lib/procs.js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const argv = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = argv.indexOf(name);
  return i === -1 ? def : argv[i + 1]!;
};

export function hottest(profile: Profile, top = 25): { self: string[]; inclusive: string[]; byFile: string[]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const where = (n: Node) => {
    const f = n.callFrame;
    const file = f.url.startsWith('file://') ? relative(ROOT, new URL(f.url).pathname) : f.url || '(native)';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    total += us;
    self.set(where(n), (self.get(where(n)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = where(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + us);
    }
  }
  const fmt = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([k]) => !/^\((root|program|idle|garbage collector)\)/.test(k) || m === self)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  // Self time by file (package for node_modules), to see which layer the time is spent in.
  const byFile = new Map<string, number>();
  for (const [k, us] of self) {
    const file = k.slice(k.indexOf(' ') + 1).replace(/:\d+$/, '');
    const layer = file.startsWith('node_modules/')
      ? file
          .split('/')
          .slice(0, file.startsWith('node_modules/@') ? 3 : 2)
          .join('/')
      : file;
    byFile.set(layer, (byFile.get(layer) ?? 0) + us);
  }
  return { self: fmt(self), inclusive: fmt(incl), byFile: fmt(byFile), totalMs: total / 1000 };
}

async function main(): Promise<void> {
  const transport = argv[0] === 'stdio' ? 'stdio' : 'http';
  const concurrency = Number(opt('--concurrency', '1'));
  const seconds = Number(opt('--seconds', '10'));
  const tool = opt('--tool', 'echo');
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-prof-'));
  const scope = new Scope();
  try {
    const upstream = transport === 'http' ? ['--upstream', (await scope.fixtureHttp()).url] : ['--', process.execPath, FIXTURE];
    const proxyArgs = argv.includes('--proxy-args')
      ? opt('--proxy-args', '').split(' ').filter(Boolean)
      : ['--max-sessions', String(concurrency + 1), '--gather-window', '0'];
    const proxy = await scope.proxy([...proxyArgs, ...upstream], {
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    });
    const clients = Array.from({ length: concurrency }, () => new ProxyClient(proxy.url, ALL_CAPS));
    const call = (c: ProxyClient) => async () => {
      const r = await c.tool(tool, { text: 'hello' });
      if (r['resultType'] === 'input_required') {
        const key = Object.keys(r['inputRequests'])[0]!;
        await c.tool(tool, { text: 'hello' }, { requestState: r['requestState'], inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } });
      }
    };
    await closedLoop(clients.map(call), 1000);
    const r = await closedLoop(clients.map(call), seconds * 1000);
    process.stdout.write(`${transport} c=${concurrency} ${tool}: ${r.calls} calls, p50 ${r.p50.toFixed(3)} ms, ${r.throughput.toFixed(0)} calls/s\n`);
    await proxy.stop('SIGTERM');
  } finally {
    await scope.close();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const h = hottest(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile);
  process.stdout.write(
    `profile: ${join(dir, file)} (${h.totalMs.toFixed(0)} ms sampled)\n\nself time:\n${h.self.join('\n')}\n\ninclusive time:\n${h.inclusive.join('\n')}\n\nself time by file or package:\n${h.byFile.join('\n')}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
