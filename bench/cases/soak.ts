// The soak (test/support/soak.ts) for minutes: `npm run bench -- soak [--minutes N]` (default 5;
// --quick: 1). One row per minute: the most each count reached in that minute, memory at its end;
// then the state once every abandoned interaction expired. The verdict is the same rule the short
// soak in `npm test` applies: after the first minute nothing that only a leak moves (descriptors and
// connections beyond what waiting calls hold, descriptors beyond the /proc files kept while stdio
// children are read, children, sessions) grows past the in-flight slack, nothing is pending and no
// /proc file is kept after the ttl, and every answer was the one its request must get. Memory is
// shown for a person to judge (it moves with GC).
import { growth, soak, type SoakSample } from '../../test/support/soak.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

/** What in-flight work moves a steady count by, with the mix's fourteen clients. */
const SLACK = 12;
const TTL_S = 20;

export async function soakCase(opts: BenchOptions): Promise<CaseResult> {
  const minutes = opts.minutes ?? (opts.quick ? 1 : 5);
  opts.log(`soak for ${minutes} min (interaction ttl ${TTL_S} s)`);
  const result = await soak({
    seconds: minutes * 60,
    sampleEverySeconds: 10,
    ttlSeconds: TTL_S,
    abandonPerSecond: 2,
    log: opts.log,
  });
  const byMinute: SoakSample[][] = [];
  for (const s of result.samples) {
    const minute = Math.max(0, Math.ceil(s.at / 60) - 1);
    byMinute[minute] = [...(byMinute[minute] ?? []), s];
  }
  const most = (samples: SoakSample[], key: keyof SoakSample) => String(Math.max(...samples.map((s) => s[key])));
  const rows = byMinute.map((samples, i) => {
    const last = samples.at(-1)!;
    return [
      String(i + 1),
      String(last.rssMiB),
      String(last.heapMiB),
      most(samples, 'descriptors'),
      most(samples, 'connections'),
      most(samples, 'sessions'),
      most(samples, 'children'),
      most(samples, 'pending'),
      most(samples, 'pendingHttp'),
    ];
  });
  const s = result.settled;
  rows.push([
    'settled',
    String(s.rssMiB),
    String(s.heapMiB),
    String(s.descriptors),
    String(s.connections),
    String(s.sessions),
    String(s.children),
    String(s.pending),
    String(s.pendingHttp),
  ]);
  const grew = growth(result, 60, SLACK);
  const sent = Object.entries(result.sent)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return {
    name: 'soak',
    tables: [
      {
        title: `Soak: ${minutes} min of mixed traffic over a Streamable HTTP and a stdio upstream (most per minute; memory at its end)`,
        columns: ['minute', 'RSS MiB', 'heap MiB', 'descriptors', 'HTTP connections', 'sessions', 'children', 'pending', 'pending (HTTP)'],
        rows,
        notes: [
          `sent: ${sent}`,
          `unexpected answers: ${result.unexpected.length === 0 ? 'none' : result.unexpected.join('; ')}`,
          grew.length === 0 && result.unexpected.length === 0
            ? `verdict: flat (after the first minute nothing grew past ${SLACK}; nothing pending ${TTL_S} s after the load)`
            : `verdict: NOT flat: ${grew.join('; ') || 'unexpected answers'}`,
        ],
      },
    ],
    charts: [],
    data: result,
  };
}
