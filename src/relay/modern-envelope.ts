// What a legacy client declared at `initialize`, as the 2026-07-28 `_meta` envelope every request
// it makes carries upstream: its clientInfo, its capabilities in their 2026-07-28 form, the log
// level it set with logging/setLevel and the request's own progressToken. Also the server side of
// the session: the initialize result a legacy client gets from the upstream's server/discover. Pure.
import { isJsonObject, type JsonObject } from '../protocol/json.js';

export const MODERN_VERSION = '2026-07-28';
/** The legacy revisions a session may settle on; the newest is offered to a client asking for another. */
export const LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** What a legacy session keeps of its client's `initialize`. */
export interface LegacyClientDeclaration {
  clientInfo: JsonObject;
  /** The 2026-07-28 form of the capabilities declared at initialize. */
  capabilities: JsonObject;
  protocolVersion: string;
}

/** Reads an initialize request's params; anything missing becomes the least a client can declare. */
export function declarationOf(params: unknown): LegacyClientDeclaration {
  const p = isJsonObject(params) ? params : {};
  const info = isJsonObject(p['clientInfo']) ? p['clientInfo'] : { name: 'unknown', version: '0' };
  const asked = typeof p['protocolVersion'] === 'string' ? p['protocolVersion'] : '';
  return {
    clientInfo: info,
    capabilities: modernCapabilities(p['capabilities']),
    protocolVersion: LEGACY_VERSIONS.includes(asked) ? asked : LEGACY_VERSIONS[0]!,
  };
}

/**
 * Legacy client capabilities in their 2026-07-28 form: elicitation, sampling and experimental as
 * declared, roots without `listChanged` (gone in 2026-07-28), tasks left out (an extension the
 * bridge does not carry).
 */
export function modernCapabilities(caps: unknown): JsonObject {
  if (!isJsonObject(caps)) return {};
  const out: JsonObject = {};
  for (const key of ['elicitation', 'sampling', 'experimental'] as const) if (isJsonObject(caps[key])) out[key] = caps[key];
  if (isJsonObject(caps['roots'])) out['roots'] = {};
  return out;
}

/** The `_meta` of one upstream request made for the session. */
export function envelopeFor(client: LegacyClientDeclaration, logLevel: string | undefined, progressToken: unknown): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': client.clientInfo,
    'io.modelcontextprotocol/clientCapabilities': client.capabilities,
    ...(logLevel === undefined ? {} : { 'io.modelcontextprotocol/logLevel': logLevel }),
    ...(typeof progressToken === 'string' || typeof progressToken === 'number' ? { progressToken } : {}),
  };
}

/**
 * The initialize result from a DiscoverResult: the server's identity, instructions and the
 * capabilities the bridge serves: `listChanged` and `resources.subscribe` as the server announces
 * them (the session's subscriptions/listen stream carries them, session-listen.ts).
 */
export function initializeResultOf(discover: JsonObject, client: LegacyClientDeclaration, fallbackName: string): JsonObject {
  const meta = isJsonObject(discover['_meta']) ? discover['_meta'] : {};
  const info = meta['io.modelcontextprotocol/serverInfo'];
  const caps = isJsonObject(discover['capabilities']) ? discover['capabilities'] : {};
  const capabilities: JsonObject = {};
  for (const key of ['tools', 'prompts', 'resources'] as const) {
    const cap = caps[key];
    if (!isJsonObject(cap)) continue;
    capabilities[key] = {
      ...(cap['listChanged'] === true ? { listChanged: true } : {}),
      ...(key === 'resources' && cap['subscribe'] === true ? { subscribe: true } : {}),
    };
  }
  for (const key of ['completions', 'logging', 'experimental'] as const) if (isJsonObject(caps[key])) capabilities[key] = caps[key];
  return {
    protocolVersion: client.protocolVersion,
    capabilities,
    serverInfo: isJsonObject(info) && typeof info['name'] === 'string' ? info : { name: fallbackName, version: '0' },
    ...(typeof discover['instructions'] === 'string' ? { instructions: discover['instructions'] } : {}),
  };
}
