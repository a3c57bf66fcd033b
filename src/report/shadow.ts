// The report's "shadow differences": the audit's shadow records grouped per primary upstream and
// tool, prompt, resource or list method, each distinct difference counted. Pure.
import type { ShadowRecord } from '../audit/shadow-record.js';

export interface ShadowDifferenceSummary {
  path: string;
  kind: string;
  /** The question's method and fields, for differences in what was asked. */
  question?: string;
  count: number;
}

export interface ShadowItem {
  upstream: string;
  candidate: string;
  method: string;
  /** Tool or prompt name, the resource or template read; the method for lists. */
  name: string;
  differed: number;
  candidateErrors: number;
  /** Why the candidate failed, by reason. */
  errors: Record<string, number>;
  differences: ShadowDifferenceSummary[];
}

function questionText(q: NonNullable<ShadowRecord['differences'][number]['question']>): string {
  const props = (q.schema as { properties?: Record<string, { type?: string; required?: boolean }> } | undefined)?.properties;
  const fields = props
    ? `: ${
        Object.entries(props)
          .map(([k, p]) => `${k}${p.required ? '' : '?'}: ${p.type ?? 'unknown'}`)
          .join(', ') || 'no fields'
      }`
    : '';
  return `${q.method}${q.elicitationMode ? ` (${q.elicitationMode})` : ''}${fields}`;
}

export function shadowItems(records: readonly ShadowRecord[]): ShadowItem[] {
  const items = new Map<string, ShadowItem>();
  for (const r of records) {
    const name = r.target === '' ? r.method : r.target;
    const id = `${r.upstream}\u0000${r.candidate}\u0000${r.method}\u0000${name}`;
    const item = items.get(id) ?? {
      upstream: r.upstream,
      candidate: r.candidate,
      method: r.method,
      name,
      differed: 0,
      candidateErrors: 0,
      errors: {},
      differences: [],
    };
    items.set(id, item);
    if (r.outcome === 'candidate_error') {
      item.candidateErrors++;
      const why = r.error ?? 'failed';
      item.errors[why] = (item.errors[why] ?? 0) + 1;
      continue;
    }
    item.differed++;
    for (const d of r.differences) {
      const question = d.question ? questionText(d.question) : undefined;
      const seen = item.differences.find((x) => x.path === d.path && x.kind === d.kind && x.question === question);
      if (seen) seen.count++;
      else item.differences.push({ path: d.path, kind: d.kind, ...(question === undefined ? {} : { question }), count: 1 });
    }
  }
  return [...items.values()].sort((a, b) => a.upstream.localeCompare(b.upstream) || a.method.localeCompare(b.method) || a.name.localeCompare(b.name));
}

/** One difference as a line: `content[0].text changed (2×)`, `inputRequests extra: elicitation/create (form): people: integer (1×)`. */
export function differenceLabel(d: ShadowDifferenceSummary): string {
  return `${d.path} ${d.kind}${d.question ? `: ${d.question}` : ''} (${d.count}×)`;
}
