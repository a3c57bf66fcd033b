// Client capabilities across the two eras. 2026-07-28 declares them per request; a legacy session
// fixes them at initialize. These functions decide which legacy session a request needs, whether
// the current request declared what a captured legacy request asks for (the bridge's rule), and
// whether an input_required result may go out (the official front's rule). Pure.

import { isJsonObject } from './json.js';

/** The subset of 2026-07-28 ClientCapabilities the bridge cares about. */
export interface FrontCapabilities {
  elicitation?: { form?: object; url?: object } & Record<string, unknown>;
  sampling?: { context?: object; tools?: object } & Record<string, unknown>;
  roots?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What a legacy session declares at initialize. Never `tasks`. Roots always with `listChanged`,
 * as desktop clients declare them: some servers read roots after initialize only then (fastmcp for
 * TypeScript), and it lets the proxy tell a server that the roots it serves changed.
 */
export interface LegacyCapabilities {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  sampling?: { context?: Record<string, never>; tools?: Record<string, never> };
  roots?: typeof ROOTS_CAPABILITY;
}

/** The roots capability every legacy session that declares roots declares. */
export const ROOTS_CAPABILITY: { listChanged: true } = Object.freeze({ listChanged: true as const });

/** Elicitation modes a 2026 declaration grants; `{}` means form only (spec, elicitation.mdx). */
/** The client capabilities a request's raw params declare in their `_meta` envelope; none when absent or malformed. */
export function declaredCapabilities(params: Record<string, unknown> | undefined): FrontCapabilities {
  const meta = params?.['_meta'];
  const caps = isJsonObject(meta) ? meta['io.modelcontextprotocol/clientCapabilities'] : undefined;
  return (isJsonObject(caps) ? caps : {}) as FrontCapabilities;
}

export function elicitationModes(caps: FrontCapabilities | undefined): { form: boolean; url: boolean } {
  const e = caps?.elicitation;
  if (!isJsonObject(e)) return { form: false, url: false };
  const form = isJsonObject(e['form']);
  const url = isJsonObject(e['url']);
  return form || url ? { form, url } : { form: true, url: false };
}

export function legacyCapabilitiesFor(caps: FrontCapabilities | undefined): LegacyCapabilities {
  const out: LegacyCapabilities = {};
  const modes = elicitationModes(caps);
  if (modes.form || modes.url) {
    out.elicitation = {};
    if (modes.form) out.elicitation.form = {};
    if (modes.url) out.elicitation.url = {};
  }
  if (isJsonObject(caps?.sampling)) {
    out.sampling = {};
    if (isJsonObject(caps.sampling['context'])) out.sampling.context = {};
    if (isJsonObject(caps.sampling['tools'])) out.sampling.tools = {};
  }
  if (isJsonObject(caps?.roots)) out.roots = ROOTS_CAPABILITY;
  return out;
}

/** Sessions are pooled by this key: equal keys mean interchangeable legacy sessions. */
export function capabilityKey(caps: LegacyCapabilities): string {
  const parts: string[] = [];
  if (caps.elicitation) parts.push(`elicitation(${Object.keys(caps.elicitation).sort().join(',')})`);
  if (caps.sampling) parts.push(`sampling(${Object.keys(caps.sampling).sort().join(',')})`);
  if (caps.roots) parts.push('roots');
  return parts.length === 0 ? 'none' : parts.join('+');
}

/**
 * The capabilities a captured legacy request needs that `caps` does not declare, as a 2026
 * `requiredCapabilities` object; `undefined` when everything needed is declared.
 */
export function missingCapabilities(
  method: string,
  params: Record<string, unknown> | undefined,
  caps: FrontCapabilities | undefined,
): Record<string, unknown> | undefined {
  switch (method) {
    case 'elicitation/create': {
      const modes = elicitationModes(caps);
      if (params?.['mode'] === 'url') return modes.url ? undefined : { elicitation: { url: {} } };
      return modes.form ? undefined : { elicitation: { form: {} } };
    }
    case 'sampling/createMessage': {
      if (!isJsonObject(caps?.sampling)) return { sampling: needsSamplingTools(params) ? { tools: {} } : {} };
      if (needsSamplingTools(params) && !isJsonObject(caps.sampling['tools'])) return { sampling: { tools: {} } };
      return undefined;
    }
    case 'roots/list':
      return isJsonObject(caps?.roots) ? undefined : { roots: {} };
    default:
      return undefined;
  }
}

function needsSamplingTools(params: Record<string, unknown> | undefined): boolean {
  return params?.['tools'] !== undefined || params?.['toolChoice'] !== undefined;
}

/**
 * What an embedded request of an input_required result requires of the client, by the official v2
 * front's rule (its `requiredClientCapabilitiesForInputRequest`, which it applies to every such
 * result it sends and does not export); undefined for a method that is no input request. The fast
 * lane, which sends results itself, goes by the same rule. `params` is read as the SDK reads it:
 * a params of null throws there as it does in the SDK.
 */
export function frontRequirement(method: string, params: unknown): Record<string, unknown> | undefined {
  const p = params as Record<string, unknown> | undefined;
  switch (method) {
    case 'elicitation/create':
      return p?.['mode'] === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return p !== undefined && (p['tools'] !== undefined || p['toolChoice'] !== undefined) ? { sampling: { tools: {} } } : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      return undefined;
  }
}

/**
 * The part of `required` (from frontRequirement) that `declared` does not declare, by the official
 * front's rule (its `missingClientCapabilities`); undefined when all is declared. It differs from
 * missingCapabilities at the edges: any value counts as declared (`elicitation: true` declares every
 * mode, `elicitation: {url: true}` URL mode and not form), and a bare `elicitation: {}` is form.
 */
export function frontMissing(required: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> | undefined {
  const missing: Record<string, unknown> = {};
  for (const [capability, requirement] of Object.entries(required)) {
    const value = declared[capability];
    if (value === undefined) {
      missing[capability] = requirement;
      continue;
    }
    if (!isJsonObject(requirement) || !isJsonObject(value)) continue;
    const members: Record<string, unknown> = {};
    for (const [member, need] of Object.entries(requirement)) {
      const implied = capability === 'elicitation' && member === 'form' && value['form'] === undefined && value['url'] === undefined;
      if (value[member] === undefined && !implied) members[member] = need;
    }
    if (Object.keys(members).length > 0) missing[capability] = members;
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

/** Human-readable name for a requiredCapabilities object, used in -32021 messages. */
export function describeCapabilities(required: Record<string, unknown>): string {
  return Object.entries(required)
    .map(([name, sub]) => {
      const inner = isJsonObject(sub) ? Object.keys(sub) : [];
      return inner.length ? `${name}.${inner.join('+')}` : name;
    })
    .join(', ');
}
