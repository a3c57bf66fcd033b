// The audit's second record kind: one shadow comparison that did not match (a difference, or a
// candidate that failed). Paths, kinds and question shapes only; the compared values are kept
// only with --audit-content, apart from protocol facts (error codes, isError, outcome kinds).

export interface ShadowDifferenceRecord {
  path: string;
  kind: 'changed' | 'missing' | 'extra';
  question?: { method: string; elicitationMode?: 'form' | 'url'; schema?: unknown };
  primary?: unknown;
  candidate?: unknown;
}

export interface ShadowRecord {
  kind: 'shadow';
  ts: string;
  /** The primary upstream (the legacy server the client was served by). */
  upstream: string;
  /** The candidate upstream (the migrated server). */
  candidate: string;
  method: string;
  /** Tool or prompt name, the declared resource or template a read was named by (else the URI's scheme); empty for lists. */
  target: string;
  outcome: 'differ' | 'candidate_error';
  /**
   * input_required rounds the primary and the candidate took. The primary's count includes the
   * proxy's roots round only when the candidate asked for the roots too (`rootsRound`).
   */
  primaryRounds: number;
  candidateRounds: number;
  candidateMs: number;
  differences: ShadowDifferenceRecord[];
  /** Differences beyond those listed. */
  truncated?: number;
  /** Why the candidate failed. */
  error?: string;
  /**
   * The primary's call had the proxy's roots round before it (docs/roots.md): `answered` when the
   * candidate asked for the roots and got that round's answer, `unused` when it never asked.
   */
  rootsRound?: 'answered' | 'unused';
}

/** Values at these paths are protocol facts, not content: kept without --audit-content. */
const FACT_PATHS = new Set(['error.code', 'outcome', 'isError']);

/** A difference as the audit keeps it: its values only with `content` (or when they are facts). */
export function auditedDifference(d: ShadowDifferenceRecord, content: boolean): ShadowDifferenceRecord {
  const { primary, candidate, ...shape } = d;
  if (!content && !FACT_PATHS.has(d.path)) return shape;
  return { ...shape, ...(primary === undefined ? {} : { primary }), ...(candidate === undefined ? {} : { candidate }) };
}

export function isShadowRecord(v: unknown): v is ShadowRecord {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'shadow';
}
