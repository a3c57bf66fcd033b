// The name a resources/read is known by outside the call: the declared resource's URI, the RFC 6570
// template it was read through (`notes://note/{id}`, never the note's id), or for a URI that matches
// nothing the server declared, its scheme only. The audit, the report and the access log use it, so
// a value the user put in a URI stays in the call. Pure; matching takes time linear in the URI
// (no regular expression built from a server's template), and gives up past fixed bounds.

/** What a read is named by; `undeclared`: the URI matched no declared resource or template, `name` is its scheme. */
export interface ResourceName {
  name: string;
  undeclared?: true;
}

/** Longer URIs or templates match nothing (their reads are named by the scheme). */
export const MAX_MATCHED_URI = 4096;
const MAX_TEMPLATE = 1024;
/** Matching steps one lookup may take over all templates before it gives up (then: the scheme). */
const MATCH_BUDGET = 1_000_000;

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

type CharTest = (c: string) => boolean;
/** One part of a template: a literal character, or an expression's value: an optional lead character, then characters `ok` allows. */
type Step = { char: string } | { lead?: string; ok: CharTest };

const not =
  (excluded: string): CharTest =>
  (c) =>
    !excluded.includes(c);

// What each operator's expansion may contain, loosely: enough to tell which template a URI came
// from, never to extract values. A `{/a}` expansion `/x/y` is one lead `/` and then anything but
// `?#`, and so on: each operator is a lead and a run, which keeps matching linear.
const VALUE: Record<string, { lead?: string; ok: CharTest }> = {
  '': { ok: not('/?#') },
  '+': { ok: not('#') },
  '#': { lead: '#', ok: () => true },
  '.': { lead: '.', ok: not('/?#') },
  '/': { lead: '/', ok: not('?#') },
  ';': { lead: ';', ok: not('/?#') },
  '?': { lead: '?', ok: not('#') },
  '&': { lead: '&', ok: not('#') },
};

function stepsOf(template: string): Step[] {
  const steps: Step[] = [];
  let at = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    for (const c of template.slice(at, m.index)) steps.push({ char: c });
    steps.push(VALUE[m[1] ?? '']!);
    at = m.index + m[0].length;
  }
  for (const c of template.slice(at)) steps.push({ char: c });
  return steps;
}

/** Whether `uri` is an expansion of `template`, spending at most `budget.left` steps (false once it runs out). */
export function matchesTemplate(uri: string, template: string, budget = { left: MATCH_BUDGET }): boolean {
  if (uri.length > MAX_MATCHED_URI || template.length > MAX_TEMPLATE) return false;
  const steps = stepsOf(template);
  // States: 2*i is "at step i", 2*i+1 is "inside step i's value, after its lead".
  const n = steps.length;
  let current = new Set<number>();
  const close = (states: Set<number>): Set<number> => {
    const out = new Set<number>();
    const add = (s: number): void => {
      if (out.has(s)) return;
      out.add(s);
      const i = s >> 1;
      // An expression's value may be empty, or end after its lead and run.
      if (i < n && !('char' in steps[i]!)) add(2 * (i + 1));
    };
    for (const s of states) add(s);
    return out;
  };
  current = close(new Set([0]));
  for (const c of uri) {
    const next = new Set<number>();
    for (const s of current) {
      if (--budget.left < 0) return false;
      const i = s >> 1;
      const step = steps[i];
      if (step === undefined) continue;
      if ('char' in step) {
        if (step.char === c) next.add(2 * (i + 1));
      } else if (s % 2 === 1 || step.lead === undefined) {
        if (step.ok(c)) next.add(s);
      } else if (step.lead === c) next.add(s + 1);
    }
    if (next.size === 0) return false;
    current = close(next);
  }
  return current.has(2 * n);
}

/** The URI's scheme and colon (RFC 3986), or `''` when it has none. */
export function schemeOf(uri: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]{0,31}:/.exec(uri)?.[0] ?? '';
}

/**
 * The name a read of `uri` goes by: the URI itself when it is a declared static resource, else the
 * first declared template it matches, else its scheme (`undeclared`).
 */
export function resourceNameOf(uri: string, statics: ReadonlySet<string> | readonly string[], templates: readonly string[]): ResourceName {
  if (Array.isArray(statics) ? statics.includes(uri) : (statics as ReadonlySet<string>).has(uri)) return { name: uri };
  const budget = { left: MATCH_BUDGET };
  const template = templates.find((t) => matchesTemplate(uri, t, budget));
  return template === undefined ? { name: schemeOf(uri), undeclared: true } : { name: template };
}
