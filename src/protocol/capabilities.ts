// Client capabilities across the two eras. 2026-07-28 declares them per request; a legacy session
// fixes them at initialize. These functions decide which legacy session a request needs and whether
// the current request declared what a captured legacy request asks for. Pure.

/** The subset of 2026-07-28 ClientCapabilities the bridge cares about. */
export interface FrontCapabilities {
  elicitation?: { form?: object; url?: object } & Record<string, unknown>;
  sampling?: { context?: object; tools?: object } & Record<string, unknown>;
  roots?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What a legacy session declares at initialize. Never `tasks`; roots never `listChanged`. */
export interface LegacyCapabilities {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  sampling?: { context?: Record<string, never>; tools?: Record<string, never> };
  roots?: Record<string, never>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Elicitation modes a 2026 declaration grants; `{}` means form only (spec, elicitation.mdx). */
export function elicitationModes(caps: FrontCapabilities | undefined): { form: boolean; url: boolean } {
  const e = caps?.elicitation;
  if (!isObject(e)) return { form: false, url: false };
  const form = isObject(e['form']);
  const url = isObject(e['url']);
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
  if (isObject(caps?.sampling)) {
    out.sampling = {};
    if (isObject(caps.sampling['context'])) out.sampling.context = {};
    if (isObject(caps.sampling['tools'])) out.sampling.tools = {};
  }
  if (isObject(caps?.roots)) out.roots = {};
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
      if (!isObject(caps?.sampling)) return { sampling: needsSamplingTools(params) ? { tools: {} } : {} };
      if (needsSamplingTools(params) && !isObject(caps.sampling['tools'])) return { sampling: { tools: {} } };
      return undefined;
    }
    case 'roots/list':
      return isObject(caps?.roots) ? undefined : { roots: {} };
    default:
      return undefined;
  }
}

function needsSamplingTools(params: Record<string, unknown> | undefined): boolean {
  return params?.['tools'] !== undefined || params?.['toolChoice'] !== undefined;
}

/** Human-readable name for a requiredCapabilities object, used in -32021 messages. */
export function describeCapabilities(required: Record<string, unknown>): string {
  return Object.entries(required)
    .map(([name, sub]) => {
      const inner = isObject(sub) ? Object.keys(sub) : [];
      return inner.length ? `${name}.${inner.join('+')}` : name;
    })
    .join(', ');
}
