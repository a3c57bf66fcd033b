// The legacy server's declared resources and resource templates, as last listed: what a read's URI
// is named by outside its call (protocol/resource-names.ts). Filled from every resources/list and
// resources/templates/list that passes through, or listed once when a read needs a name and none
// was seen; dropped on resources/list_changed and on a reload.
import type { JsonObject } from '../protocol/json.js';
import { resourceNameOf, type ResourceName } from '../protocol/resource-names.js';

/** Entries kept of each list: a server declaring more is named by the first ones. */
const MAX_ENTRIES = 10_000;
/** Pages read of each list when the catalog lists it itself. */
const MAX_PAGES = 100;

export type ListPage = (method: 'resources/list' | 'resources/templates/list', cursor: string | undefined) => Promise<JsonObject>;

export class ResourceCatalog {
  private readonly statics = new Set<string>();
  private readonly templates: string[] = [];
  private readonly templateSet = new Set<string>();
  /** Both lists were read in full since the last change. */
  private listing: Promise<void> | undefined;
  private generation = 0;

  /** Merges a page of resources/list or resources/templates/list. */
  observe(method: string, result: JsonObject): void {
    if (method === 'resources/list' && Array.isArray(result['resources'])) {
      for (const r of result['resources'] as unknown[]) {
        const uri = (r as { uri?: unknown } | null)?.uri;
        if (typeof uri === 'string' && this.statics.size < MAX_ENTRIES) this.statics.add(uri);
      }
    }
    if (method === 'resources/templates/list' && Array.isArray(result['resourceTemplates'])) {
      for (const t of result['resourceTemplates'] as unknown[]) {
        const template = (t as { uriTemplate?: unknown } | null)?.uriTemplate;
        if (typeof template === 'string' && !this.templateSet.has(template) && this.templates.length < MAX_ENTRIES) {
          this.templateSet.add(template);
          this.templates.push(template);
        }
      }
    }
  }

  invalidate(): void {
    this.statics.clear();
    this.templates.length = 0;
    this.templateSet.clear();
    this.listing = undefined;
    this.generation++;
  }

  /** The name of a read of `uri` from what is known now, without listing. */
  known(uri: string): ResourceName {
    return resourceNameOf(uri, this.statics, this.templates);
  }

  /** The name of a read of `uri`, listing both lists in full once (per change) if the URI matches nothing known. */
  async nameOf(uri: string, list: ListPage): Promise<ResourceName> {
    const now = this.known(uri);
    if (!now.undeclared) return now;
    this.listing ??= this.listAll(list);
    await this.listing;
    return this.known(uri);
  }

  private async listAll(list: ListPage): Promise<void> {
    const generation = this.generation;
    for (const method of ['resources/list', 'resources/templates/list'] as const) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        // A server without resources, or that fails to list them, has none to name a read by.
        const result = await list(method, cursor).catch(() => undefined);
        if (result === undefined || generation !== this.generation) return;
        this.observe(method, result);
        cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
        if (cursor === undefined) break;
      }
    }
  }
}
