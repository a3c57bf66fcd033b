// The `shadow:` key of a configured upstream: which requests are also sent to a candidate (the
// migrated 2026-07-28 server) and compared. The schema, the resolved shape and the parser of the
// `ignore` paths live here so the file is validated once at the edge; shadow/ applies them.
import { z } from 'zod';

/** Read-only methods that may be shadowed; tools/call is shadowed per tool, by name only. */
export const SHADOW_METHODS = ['tools/list', 'prompts/list', 'prompts/get', 'resources/list', 'resources/templates/list', 'resources/read'] as const;
export type ShadowMethod = (typeof SHADOW_METHODS)[number];

export const DEFAULT_SHADOW_TIMEOUT_MS = 10_000;
export const DEFAULT_SHADOW_MAX_CONCURRENT = 4;

/** One step of an ignore path: a property name, an array index, or `*` (any element or property). */
export type PathStep = { key: string } | { index: number } | { any: true };

export interface ShadowConfig {
  /** The candidate: another configured upstream (era modern, http). */
  upstream: string;
  /** Tools whose calls are shadowed (never any other tool: a call may have side effects). */
  tools: string[];
  methods: ShadowMethod[];
  /** Share of eligible requests compared, 0 to 1. */
  sample: number;
  /** Volatile fields left out of the comparison, as written in the file. */
  ignore: string[];
  /** A candidate exchange (all its rounds) not done within this counts as candidate_error. */
  timeoutMs: number;
  /** Comparisons running at once; one more is skipped. */
  maxConcurrent: number;
}

const STEP = /^(?:\.?([A-Za-z_$][\w$-]*)|\.?\*|\[(\d+)\]|\[\*\]|\["((?:[^"\\]|\\.)+)"\])/;

/**
 * Parses `structuredContent.generatedAt`, `content[*].text`, `tools[*].annotations`, `$.a["b c"]`:
 * property names, `[N]`, `*` or `[*]`, an optional leading `$`. Throws a message on anything else.
 */
export function parseIgnorePath(path: string): PathStep[] {
  let rest = path.startsWith('$') ? path.slice(1) : path;
  const steps: PathStep[] = [];
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (!m) throw new Error(`'${path}' is not a field path (e.g. structuredContent.generatedAt, content[*].text)`);
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ key: JSON.parse(`"${m[3]}"`) as string });
    else steps.push({ any: true });
    rest = rest.slice(m[0].length);
  }
  if (steps.length === 0) throw new Error(`'${path}' names no field`);
  return steps;
}

const ignorePath = z.string().superRefine((p, ctx) => {
  try {
    parseIgnorePath(p);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

export const shadowSchema = z
  .strictObject({
    upstream: z.string().min(1),
    tools: z.array(z.string().min(1)).optional(),
    methods: z
      .array(
        z.string().refine((m) => (SHADOW_METHODS as readonly string[]).includes(m), {
          message: `a shadowed method is one of ${SHADOW_METHODS.join(', ')} (tools are shadowed by name, in tools)`,
        }),
      )
      .optional(),
    sample: z.number().min(0).max(1).optional(),
    ignore: z.array(ignorePath).optional(),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    maxConcurrent: z.number().int().min(1).max(64).optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.tools ?? []).length === 0 && (s.methods ?? []).length === 0)
      ctx.addIssue({ code: 'custom', message: 'shadows nothing: name tools, methods or both' });
  });

export type ShadowShape = z.infer<typeof shadowSchema>;

/** Checks what one upstream's shadow says about the others; returns the problem, or undefined. */
export function shadowProblem(
  name: string,
  shadow: ShadowShape,
  era: string | undefined,
  upstreams: Record<string, { era?: string | undefined; http?: unknown; shadow?: unknown }>,
): string | undefined {
  if ((era ?? 'legacy') !== 'legacy') return 'only a legacy upstream (bridged by the proxy) can be shadowed';
  if (shadow.upstream === name) return 'an upstream cannot shadow itself';
  const candidate = upstreams[shadow.upstream];
  if (!candidate) return `'${shadow.upstream}' is not one of the upstreams`;
  if (candidate.era !== 'modern' || candidate.http === undefined)
    return `the candidate '${shadow.upstream}' must be a 2026-07-28 server: era: modern with an http transport`;
  return undefined;
}

export function resolveShadow(s: ShadowShape): ShadowConfig {
  return {
    upstream: s.upstream,
    tools: s.tools ?? [],
    methods: (s.methods ?? []) as ShadowMethod[],
    sample: s.sample ?? 1,
    ignore: s.ignore ?? [],
    timeoutMs: s.timeoutMs ?? DEFAULT_SHADOW_TIMEOUT_MS,
    maxConcurrent: s.maxConcurrent ?? DEFAULT_SHADOW_MAX_CONCURRENT,
  };
}
