// Reads audit files (JSON lines written by --audit): interactive-call records and shadow
// comparison records. A line that is neither (a torn last line after a crash, a foreign file) is
// skipped and counted, never fatal.
import { readFile } from 'node:fs/promises';
import type { AuditRecord } from '../audit/record.js';
import { isShadowRecord, type ShadowRecord } from '../audit/shadow-record.js';

export interface AuditLines {
  records: AuditRecord[];
  shadow: ShadowRecord[];
  skipped: number;
}

export function parseAuditLines(text: string): AuditLines {
  const out: AuditLines = { records: [], shadow: [], skipped: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<AuditRecord>;
      // A task's line (telemetry/task-telemetry.ts): the report covers calls, not tasks.
      if ((r as { kind?: unknown }).kind === 'task') continue;
      if (isShadowRecord(r)) {
        if (typeof r.upstream === 'string' && typeof r.method === 'string' && Array.isArray(r.differences)) out.shadow.push(r);
        else out.skipped++;
      } else if (typeof r.method === 'string' && typeof r.target === 'string' && typeof r.upstream === 'string' && Array.isArray(r.requests) && r.outcome) {
        out.records.push(r as AuditRecord);
      } else out.skipped++;
    } catch {
      out.skipped++;
    }
  }
  return out;
}

export async function readAuditFiles(files: readonly string[]): Promise<AuditLines> {
  const out: AuditLines = { records: [], shadow: [], skipped: 0 };
  for (const f of files) {
    const { records, shadow, skipped } = parseAuditLines(await readFile(f, 'utf8'));
    out.records.push(...records);
    out.shadow.push(...shadow);
    out.skipped += skipped;
  }
  return out;
}
