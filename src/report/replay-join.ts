// A replayed call runs once per round, maybe on several instances, and each run leaves its own
// audit record (linked by `replay.call`). The report counts calls, not runs: this joins the runs of
// each call into one record, in run order. Pure.
import type { AuditRecord, AuditedRequest } from '../audit/record.js';

/** How the record of a replayed call matched when its runs asked again. */
export interface ReplayMatch {
  runs: number;
  /** Legacy requests answered from the record, without asking the client. */
  fromRecord: number;
  /** Positions where a run asked something other than the record held (asked anew). */
  mismatched: number;
}

const startOf = (r: AuditRecord) => Date.parse(r.ts) - r.durationMs;

/** Records with one entry per call: the runs of each replayed call merged, every other record as is. */
export function joinReplayRuns(records: readonly AuditRecord[]): Array<AuditRecord & { replayMatch?: ReplayMatch }> {
  const out: Array<AuditRecord & { replayMatch?: ReplayMatch }> = [];
  const calls = new Map<string, AuditRecord[]>();
  for (const r of records) {
    if (!r.replay) {
      out.push(r);
      continue;
    }
    const key = `${r.upstream}\u0000${r.replay.call}`;
    const runs = calls.get(key);
    if (runs) runs.push(r);
    else {
      calls.set(key, [r]);
      // Keeps the call at the place of its first record; replaced by the merged record below.
      out.push(r);
    }
  }
  const merged = new Map<AuditRecord, AuditRecord & { replayMatch?: ReplayMatch }>();
  for (const runs of calls.values()) {
    const placeholder = runs[0]!;
    // Runs may come from several instances' files in any order.
    merged.set(placeholder, mergeRuns([...runs].sort((a, b) => a.replay!.run - b.replay!.run)));
  }
  return out.map((r) => merged.get(r) ?? r);
}

function mergeRuns(runs: readonly AuditRecord[]): AuditRecord & { replayMatch: ReplayMatch } {
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const requests: AuditedRequest[] = [];
  runs.forEach((run, i) => {
    const next = runs[i + 1];
    for (const q of run.requests) {
      const a = next?.replay?.answered.find((x) => x.key === q.key);
      if (!a || !next) {
        requests.push(q);
        continue;
      }
      const { round: _r, key: _k, method: _m, ...answer } = a;
      // The client thought from this run's end to the next run's start.
      requests.push({ ...q, ...answer, clientMs: Math.max(0, startOf(next) - Date.parse(run.ts)) });
    }
  });
  const { replay: _replay, ...base } = last;
  return {
    ...base,
    method: first.method,
    target: first.target,
    mode: 'replay',
    rounds: Math.max(...runs.map((r) => r.rounds)),
    durationMs: Date.parse(last.ts) - startOf(first),
    requests,
    ...(first.arguments !== undefined ? { arguments: first.arguments } : {}),
    replayMatch: {
      runs: runs.length,
      fromRecord: runs.reduce((n, r) => n + (r.replay?.fromRecord ?? 0), 0),
      mismatched: runs.reduce((n, r) => n + (r.replay?.mismatched ?? 0), 0),
    },
  };
}
