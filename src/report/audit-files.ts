// Reads audit files (JSON lines written by --audit). A line that is not an audit record (a torn
// last line after a crash, a foreign file) is skipped and counted, never fatal.
import { readFile } from 'node:fs/promises';
import type { AuditRecord } from '../audit/record.js';

export function parseAuditLines(text: string): { records: AuditRecord[]; skipped: number } {
  const records: AuditRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<AuditRecord>;
      if (typeof r.method === 'string' && typeof r.target === 'string' && typeof r.upstream === 'string' && Array.isArray(r.requests) && r.outcome) {
        records.push(r as AuditRecord);
      } else skipped++;
    } catch {
      skipped++;
    }
  }
  return { records, skipped };
}

export async function readAuditFiles(files: readonly string[]): Promise<{ records: AuditRecord[]; skipped: number }> {
  const out = { records: [] as AuditRecord[], skipped: 0 };
  for (const f of files) {
    const { records, skipped } = parseAuditLines(await readFile(f, 'utf8'));
    out.records.push(...records);
    out.skipped += skipped;
  }
  return out;
}
