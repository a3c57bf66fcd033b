// Reads audit files (JSON lines written by --audit): interactive-call records and shadow
// comparison records, each checked against its schema (audit-schema.ts) before anything uses it.
// A line that is neither (a torn last line after a crash, a foreign file) or that fails its schema
// (an edited file) is skipped, counted and named by file and line, never fatal and never trusted.
import { readFile } from 'node:fs/promises';
import type { AuditRecord } from '../audit/record.js';
import type { ShadowRecord } from '../audit/shadow-record.js';
import { auditRecordSchema, MAX_AUDIT_LINE, shadowRecordSchema, whyInvalid } from './audit-schema.js';

/** A line the report did not read, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  why: string;
}

export interface AuditLines {
  records: AuditRecord[];
  shadow: ShadowRecord[];
  skipped: number;
  /** Every skipped line that holds something (blank lines and task lines are not skipped, just not records). */
  invalid: SkippedLine[];
}

export function parseAuditLines(text: string, file = '(audit)'): AuditLines {
  const out: AuditLines = { records: [], shadow: [], skipped: 0, invalid: [] };
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const read = readLine(line);
    if (read.kind === 'task') continue;
    if (read.kind === 'skip') {
      out.skipped++;
      out.invalid.push({ file, line: i + 1, why: read.why });
    } else if (read.kind === 'shadow') out.shadow.push(read.record);
    else out.records.push(read.record);
  }
  return out;
}

type Read = { kind: 'record'; record: AuditRecord } | { kind: 'shadow'; record: ShadowRecord } | { kind: 'task' } | { kind: 'skip'; why: string };

function readLine(line: string): Read {
  if (line.length > MAX_AUDIT_LINE) return { kind: 'skip', why: `longer than ${MAX_AUDIT_LINE} characters` };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'skip', why: 'not JSON' };
  }
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  // A task's line (telemetry/task-telemetry.ts): the report covers calls, not tasks.
  if (kind === 'task') return { kind: 'task' };
  if (kind === 'shadow') {
    const parsed = shadowRecordSchema.safeParse(value);
    return parsed.success ? { kind: 'shadow', record: parsed.data as ShadowRecord } : { kind: 'skip', why: `shadow record: ${whyInvalid(parsed.error)}` };
  }
  const parsed = auditRecordSchema.safeParse(value);
  return parsed.success ? { kind: 'record', record: parsed.data as AuditRecord } : { kind: 'skip', why: `audit record: ${whyInvalid(parsed.error)}` };
}

export async function readAuditFiles(files: readonly string[]): Promise<AuditLines> {
  const out: AuditLines = { records: [], shadow: [], skipped: 0, invalid: [] };
  for (const f of files) {
    const { records, shadow, skipped, invalid } = parseAuditLines(await readFile(f, 'utf8'), f);
    out.records.push(...records);
    out.shadow.push(...shadow);
    out.skipped += skipped;
    out.invalid.push(...invalid);
  }
  return out;
}
