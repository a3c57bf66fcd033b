// Reading Prometheus metrics the way a scraper does: the text exposition format parsed into
// samples (https://prometheus.io/docs/instrumenting/exposition_formats/), and a scrape helper.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    const raw = m[3]!;
    samples.push({ name: m[1]!, labels, value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw) });
  }
  return samples;
}

export class Scrape {
  constructor(readonly samples: Sample[]) {}

  /** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  }

  has(name: string): boolean {
    return this.samples.some((s) => s.name === name);
  }
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/plain')) throw new Error(`GET ${url}: content-type ${res.headers.get('content-type')}`);
  return new Scrape(parseExposition(await res.text()));
}

/** The difference of each watched value between two scrapes. */
export function delta(before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}): number {
  return after.value(name, labels) - before.value(name, labels);
}
