import type { Table } from './table.js';
import type { Panel } from './svg.js';

export interface BenchOptions {
  quick: boolean;
  /** `--minutes N`: how long a case that runs for a time runs (the soak). */
  minutes?: number;
  log(line: string): void;
}

export interface CaseResult {
  name: string;
  tables: Table[];
  charts: Panel[];
  /** Everything measured, for latest.json. */
  data: unknown;
}

export type BenchCase = (opts: BenchOptions) => Promise<CaseResult>;
