// The legacy server's tool input schemas, as last seen in a tools/list. The front needs a tool's
// schema before dispatch to check SEP-2243 `Mcp-Param-*` headers against its `x-mcp-header`
// declarations. Filled from every tools/list that passes through; dropped on tools/list_changed.
import { isJsonObject, type JsonObject } from '../protocol/json.js';

export class ToolSchemas {
  private readonly schemas = new Map<string, JsonObject>();
  /** Each tool's `annotations` (readOnlyHint, idempotentHint, ...), for the suspend mode `auto`. */
  private readonly annotations = new Map<string, JsonObject>();
  /** Each tool's 2025-11-25 `execution` (its task support), for the tasks extension. */
  private readonly executions = new Map<string, JsonObject>();
  /** Capability sets whose full tool list was read since the last change (lists vary by set). */
  private readonly listed = new Set<string>();
  private generation = 0;

  /** Merges a tools/list page: which tools exist varies with capabilities, a tool's schema does not. */
  observe(result: JsonObject): void {
    const tools = Array.isArray(result['tools']) ? (result['tools'] as JsonObject[]) : [];
    for (const tool of tools) {
      if (typeof tool['name'] === 'string' && typeof tool['inputSchema'] === 'object' && tool['inputSchema'] !== null) {
        this.schemas.set(tool['name'], tool['inputSchema'] as JsonObject);
      }
      if (typeof tool['name'] === 'string' && isJsonObject(tool['annotations'])) this.annotations.set(tool['name'], tool['annotations']);
      if (typeof tool['name'] === 'string' && isJsonObject(tool['execution'])) this.executions.set(tool['name'], tool['execution']);
    }
  }

  invalidate(): void {
    this.schemas.clear();
    this.annotations.clear();
    this.executions.clear();
    this.listed.clear();
    this.generation++;
  }

  get(name: string): JsonObject | undefined {
    return this.schemas.get(name);
  }

  annotationsOf(name: string): JsonObject | undefined {
    return this.annotations.get(name);
  }

  executionOf(name: string): JsonObject | undefined {
    return this.executions.get(name);
  }

  /** The schema of `name`, reading the whole tool list for `capabilityKey` once if it is unknown. */
  async lookup(name: string, capabilityKey: string, list: (cursor: string | undefined) => Promise<JsonObject>): Promise<JsonObject | undefined> {
    if (this.schemas.has(name) || this.listed.has(capabilityKey)) return this.schemas.get(name);
    const generation = this.generation;
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      if (generation !== this.generation) return this.schemas.get(name);
      this.observe(page);
      cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
    } while (cursor !== undefined);
    this.listed.add(capabilityKey);
    return this.schemas.get(name);
  }
}
