// Client capabilities across the two eras. 2026-07-28 declares them per request; a legacy session
// fixes them at initialize. These functions decide which legacy session a request needs, whether
// the current request declared what a captured legacy request asks for (the bridge's rule), and
// whether an input_required result may go out (the official front's rule). Pure.

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

/**
 * Whether `declared` (a request's client capabilities) covers what an embedded request of an
 * input_required result needs, by the official v2 front's rule, which it applies to every such
 * result it sends and does not export; the fast lane, which sends results without it, answers by
 * the same rule. It differs from missingCapabilities at the edges: a declaration that is not an
 * object counts as declared, so `elicitation: {url: true}` grants URL mode and not form.
 */
export function frontCovers(entry: Record<string, unknown>, declared: Record<string, unknown>): boolean {
  const params = entry['params'];
  // The SDK reads members of any params value; anything but an object or nothing is left to it.
  if (params !== undefined && !isObject(params)) return false;
  const p = params;
  switch (entry['method']) {
    case 'elicitation/create': {
      const e = declared['elicitation'];
      if (e === undefined) return false;
      if (!isObject(e)) return true;
      if (p?.['mode'] === 'url') return e['url'] !== undefined;
      return e['form'] !== undefined || e['url'] === undefined;
    }
    case 'sampling/createMessage': {
      const s = declared['sampling'];
      if (s === undefined) return false;
      const tools = p !== undefined && (p['tools'] !== undefined || p['toolChoice'] !== undefined);
      return !tools || !isObject(s) || s['tools'] !== undefined;
    }
    case 'roots/list':
      return declared['roots'] !== undefined;
    default:
      return false;
  }
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
