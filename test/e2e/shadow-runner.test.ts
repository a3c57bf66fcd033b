// The per-process shadow runner: sampling, the listed methods only, and a candidate that cannot be
// reached counted as candidate_error and recorded (a real fetch to a closed 127.0.0.1 port).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { ShadowRecord } from '../../src/audit/shadow-record.js';
import type { ShadowConfig } from '../../src/config/shadow.js';
import type { ProxyConfig, UpstreamConfig } from '../../src/config/types.js';
import { systemClock } from '../../src/clock.js';
import { TokenCache } from '../../src/upstream/client-credentials.js';
import { ShadowComparisons } from '../../src/shadow/shadow.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { ProxyMetrics } from '../../src/telemetry/metrics.js';
import { until } from '../support/wait.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function config(shadow: Partial<ShadowConfig>, port: number): ProxyConfig {
  const full: ShadowConfig = { upstream: 'new', tools: [], methods: ['tools/list'], sample: 1, ignore: [], timeoutMs: 2000, maxConcurrent: 4, ...shadow };
  const upstreams = [
    { name: 'old', era: 'legacy', target: { kind: 'stdio', command: 'node', args: [] }, shadow: full },
    { name: 'new', era: 'modern', target: { kind: 'http', url: new URL(`http://127.0.0.1:${port}/mcp`), headers: {} } },
  ] as unknown as UpstreamConfig[];
  return { upstreams } as ProxyConfig;
}

function runner(random: number) {
  const metrics = new ProxyMetrics({ defaultMetrics: false });
  const records: ShadowRecord[] = [];
  const shadows = new ShadowComparisons({
    log: createLogger('error'),
    clock: systemClock,
    metrics,
    sink: (r) => records.push(r),
    content: false,
    tokens: new TokenCache(),
    random: () => random,
  });
  const count = async (outcome: string) => {
    const m = (await metrics.shadowComparisons.get()).values.find((v) => v.labels['outcome'] === outcome && v.labels['upstream'] === 'old');
    return m?.value ?? 0;
  };
  return { shadows, records, count };
}

const listed = { method: 'tools/list', params: {}, capabilities: {}, result: { tools: [] } };

describe('shadow runner', () => {
  it('skips what the sample leaves out, and ignores methods not listed', async () => {
    const port = await closedPort();
    const r = runner(0.5);
    r.shadows.apply(config({ sample: 0.5 }, port));
    r.shadows.forwardsOf('old').onForwarded(listed);
    r.shadows.forwardsOf('old').onForwarded({ ...listed, method: 'prompts/list' });
    r.shadows.forwardsOf('other').onForwarded(listed);
    assert.equal(await r.count('skipped'), 1);
    r.shadows.apply(config({ sample: 0 }, port));
    r.shadows.forwardsOf('old').onForwarded(listed);
    assert.equal(await r.count('skipped'), 2);
    assert.equal(r.records.length, 0);
    r.shadows.close();
  });

  it('counts and records an unreachable candidate, after the primary was served', async () => {
    const r = runner(0);
    r.shadows.apply(config({}, await closedPort()));
    r.shadows.forwardsOf('old').onForwarded(listed);
    assert.equal(await r.count('candidate_error'), 0, 'nothing ran in the primary’s turn');
    await until(async () => (await r.count('candidate_error')) === 1, 5000, 'the failure counted');
    assert.deepEqual(
      r.records.map((x) => [x.kind, x.upstream, x.candidate, x.method, x.outcome, x.error?.split(':')[0]]),
      [['shadow', 'old', 'new', 'tools/list', 'candidate_error', 'unreachable']],
    );
    r.shadows.close();
  });

  it('stops comparing after a reload that removes the shadow', async () => {
    const r = runner(0);
    const port = await closedPort();
    r.shadows.apply(config({}, port));
    const forwards = r.shadows.forwardsOf('old');
    r.shadows.apply({ upstreams: [] } as unknown as ProxyConfig);
    forwards.onForwarded(listed);
    assert.equal(await r.count('skipped'), 0);
    assert.equal(await r.count('candidate_error'), 0);
    r.shadows.close();
  });
});
