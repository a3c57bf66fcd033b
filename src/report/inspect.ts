// Asks a legacy upstream what it declares, as a client with every capability would see it (some
// servers only list their asking tools to clients that can answer): tools with their annotations,
// prompts, resources and resource templates, every page. A modern upstream is not inspected; the
// audit still counts.
import type { UpstreamConfig } from '../config/types.js';
import { legacyCapabilitiesFor } from '../protocol/capabilities.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import { probeEra } from '../upstream/probe.js';
import { UpstreamResources } from '../upstream/resources.js';
import { Upstream } from '../upstream/upstream.js';
import type { Declared } from './model.js';

const EVERY_CAPABILITY = legacyCapabilitiesFor({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {} });
/** A server that pages forever is cut off here. */
const MAX_PAGES = 100;

async function listAll(upstream: Upstream, method: string, field: string): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await upstream.forward(method, cursor === undefined ? undefined : { cursor }, EVERY_CAPABILITY);
    out.push(...((r[field] as JsonObject[] | undefined) ?? []));
    cursor = typeof r['nextCursor'] === 'string' ? r['nextCursor'] : undefined;
    if (cursor === undefined) break;
  }
  return out;
}

/** `{[field]: value}` when the field is a string, else nothing. */
function text(o: JsonObject, field: string): Record<string, string> {
  const v = o[field];
  return typeof v === 'string' ? { [field]: v } : {};
}

function promptArgument(a: JsonObject): { name: string; required?: boolean; description?: string } {
  return { name: String(a['name']), ...(a['required'] === true ? { required: true } : {}), ...text(a, 'description') };
}

export async function inspectUpstream(config: UpstreamConfig, log: Logger, clock: Clock): Promise<Declared> {
  const empty = { upstream: config.name, tools: [], prompts: [], resources: [] };
  const resources = new UpstreamResources();
  const era = config.era === 'auto' ? await probeEra(config.target, config.connectTimeoutMs, resources).catch(() => 'legacy' as const) : config.era;
  if (era === 'modern') {
    resources.close();
    return { ...empty, error: 'a modern (2026-07-28) upstream: nothing to migrate, not inspected' };
  }
  // No spare sessions: the report opens exactly the sessions it uses.
  const upstream = new Upstream({ ...config, spareSessions: 0 }, log, clock, resources);
  try {
    const info = await upstream.describe();
    const caps = info.capabilities;
    const tools = caps['tools'] ? await listAll(upstream, 'tools/list', 'tools') : [];
    const prompts = caps['prompts'] ? await listAll(upstream, 'prompts/list', 'prompts') : [];
    const resources = caps['resources'] ? await listAll(upstream, 'resources/list', 'resources') : [];
    // A server may declare resources without answering resources/templates/list: it then has none.
    const templates = caps['resources'] ? await listAll(upstream, 'resources/templates/list', 'resourceTemplates').catch(() => []) : [];
    return {
      upstream: config.name,
      server: { name: String(info.serverInfo.name), version: String(info.serverInfo.version) },
      tools: tools.map((t) => ({
        name: String(t['name']),
        ...text(t, 'title'),
        ...(t['annotations'] ? { annotations: t['annotations'] as JsonObject } : {}),
        ...text(t, 'description'),
        ...(isJsonObject(t['inputSchema']) ? { inputSchema: t['inputSchema'] } : {}),
      })),
      prompts: prompts.map((p) => ({
        name: String(p['name']),
        ...text(p, 'description'),
        ...(Array.isArray(p['arguments']) ? { arguments: p['arguments'].filter(isJsonObject).map(promptArgument) } : {}),
      })),
      resources: resources.map((r) => ({ uri: String(r['uri']), ...text(r, 'name'), ...text(r, 'description'), ...text(r, 'mimeType') })),
      resourceTemplates: templates.map((t) => ({
        uriTemplate: String(t['uriTemplate']),
        ...text(t, 'name'),
        ...text(t, 'description'),
        ...text(t, 'mimeType'),
      })),
    };
  } catch (err) {
    return { ...empty, error: `cannot list what the server declares: ${(err as Error).message}` };
  } finally {
    await upstream.close();
    resources.close();
  }
}
