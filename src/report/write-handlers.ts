// Writes a generated server to disk: every generated file is replaced, an author's file (the
// `finish` each handler ends in) is written only when it does not exist yet, so regenerating
// after a new audit never loses what the author wrote.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GeneratedFile } from './handlers-ts.js';

export interface Written {
  written: string[];
  /** Author files left as they were. */
  kept: string[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

export async function writeGenerated(dir: string, files: readonly GeneratedFile[]): Promise<Written> {
  const out: Written = { written: [], kept: [] };
  for (const f of files) {
    const path = join(dir, f.path);
    if (f.author && (await exists(path))) {
      out.kept.push(path);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.text);
    out.written.push(path);
  }
  return out;
}
