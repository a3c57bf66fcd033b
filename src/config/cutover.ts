// The `cutover:` key of a legacy upstream: the items (tools, prompts, resources, resource
// templates) its migrated 2026-07-28 server already serves, and which configured upstream that
// server is. The schema, the checks against the other upstreams and the resolved shape live here,
// so the file is validated once at the edge; routing/ decides with it, relay/ reaches the server.
import { z } from 'zod';
import type { UpstreamTarget } from './types.js';

/** The kinds of item that can be cut over, as the file names them. */
export const CUTOVER_KINDS = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;
export type CutoverKind = (typeof CUTOVER_KINDS)[number];

/** What is cut over, by kind: tool and prompt names, resource URIs, resource templates as declared. */
export type CutoverItems = Record<CutoverKind, string[]>;

export interface CutoverConfig extends CutoverItems {
  /** The migrated server: another configured upstream (era modern, http). */
  upstream: string;
  /** That upstream's transport, resolved with it (URL, headers, the proxy's own credentials). */
  target: Extract<UpstreamTarget, { kind: 'http' }>;
}

const names = z.array(z.string().min(1));

export const cutoverSchema = z
  .strictObject({
    upstream: z.string().min(1),
    tools: names.optional(),
    prompts: names.optional(),
    resources: names.optional(),
    resourceTemplates: names.optional(),
  })
  .superRefine((c, ctx) => {
    if (CUTOVER_KINDS.every((k) => (c[k] ?? []).length === 0))
      ctx.addIssue({ code: 'custom', message: 'cuts nothing over: name tools, prompts, resources or resourceTemplates (or remove cutover:)' });
    for (const kind of CUTOVER_KINDS) {
      const twice = (c[kind] ?? []).find((item, i, all) => all.indexOf(item) !== i);
      if (twice !== undefined) ctx.addIssue({ code: 'custom', path: [kind], message: `'${twice}' is named twice` });
    }
    const templated = (c.resources ?? []).find((uri) => /\{[^}]*\}/.test(uri));
    if (templated !== undefined)
      ctx.addIssue({ code: 'custom', path: ['resources'], message: `'${templated}' is a URI template: name it under resourceTemplates` });
  });

export type CutoverShape = z.infer<typeof cutoverSchema>;

/**
 * Checks what one upstream's cutover says about the others (and its own shadow); returns each
 * problem with the field it concerns, relative to the upstream.
 */
export function cutoverProblems(
  name: string,
  cutover: CutoverShape,
  era: string | undefined,
  upstreams: Record<string, { era?: string | undefined; http?: unknown }>,
  shadowedTools: readonly string[],
): { path: string[]; message: string }[] {
  if ((era ?? 'legacy') !== 'legacy')
    return [{ path: ['cutover'], message: 'only a legacy upstream (bridged by the proxy) can cut items over; a 2026-07-28 upstream serves every item itself' }];
  if (cutover.upstream === name) return [{ path: ['cutover', 'upstream'], message: 'an upstream cannot cut over to itself' }];
  const migrated = upstreams[cutover.upstream];
  if (!migrated) return [{ path: ['cutover', 'upstream'], message: `'${cutover.upstream}' is not one of the upstreams` }];
  if (migrated.era !== 'modern' || migrated.http === undefined)
    return [
      {
        path: ['cutover', 'upstream'],
        message: `the migrated server '${cutover.upstream}' must be a 2026-07-28 server over http (era: modern with http:); a 2026-07-28 stdio server cannot take cut-over items yet`,
      },
    ];
  // A cut-over tool never reaches the bridge, so its shadow would compare nothing.
  return shadowedTools
    .filter((t) => cutover.tools?.includes(t))
    .map((t) => ({
      path: ['shadow', 'tools'],
      message: `'${t}' is cut over (cutover.tools): the migrated server serves it and nothing compares it; remove it from shadow.tools`,
    }));
}

export function resolveCutover(c: CutoverShape, target: Extract<UpstreamTarget, { kind: 'http' }>): CutoverConfig {
  return {
    upstream: c.upstream,
    target,
    tools: c.tools ?? [],
    prompts: c.prompts ?? [],
    resources: c.resources ?? [],
    resourceTemplates: c.resourceTemplates ?? [],
  };
}
