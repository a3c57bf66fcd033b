// A 2025-era client's session on a legacy upstream: relayed as it is to its own legacy session
// (LegacyPump), except what the upstream's cutover moved. Every message of the client is read here
// before it is forwarded: a tools/call, prompts/get or resources/read of a cut-over item becomes a
// flow on the migrated server (modern-flows.ts, as the reverse bridge runs one, with what the
// client declared at initialize), its questions asked on the session and their answers taken
// back; a list's answer from the legacy server gets the migrated server's entries of the cut-over
// items. The cutover is read for each request, so one a reload changed applies to the next.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJsonObject, type JsonObject, type RequestId } from '../protocol/json.js';
import { CUTOVER_LISTS } from '../routing/cutover-lists.js';
import { sideOf } from '../routing/cutover.js';
import type { ClientSessionPump, SessionMessage, ToClient } from './client-session-pump.js';
import { LegacyPump } from './legacy-pump.js';
import { CUTOVER_CHECK_TIMEOUT_MS, type MigratedServer } from './migrated-server.js';
import { declarationOf, type LegacyClientDeclaration } from './modern-envelope.js';
import { ModernFlows, type ModernFlowOptions } from './modern-flows.js';

export interface CutoverSessionOptions extends ModernFlowOptions {
  /** The migrated server of the upstream's cutover now, if it has one. */
  migrated: () => MigratedServer | undefined;
}

export class CutoverSession implements ClientSessionPump {
  onclose?: () => void;
  private readonly legacy: LegacyPump;
  private readonly flows: ModernFlows;
  private client: LegacyClientDeclaration | undefined;
  private logLevel: string | undefined;
  /** List requests sent to the legacy server whose answer gets the migrated server's entries. */
  private readonly lists = new Map<RequestId, { method: string; migrated: MigratedServer }>();
  /** The client's initialize, whose answer says which lists the legacy server announces changes of. */
  private initializeId: RequestId | undefined;
  /** The list_changed notifications the legacy server announced at initialize (`listChanged`). */
  private announced: readonly string[] = [];
  /** Aborted when the session ends: no flow starts after it, and a list's merge stops waiting. */
  private readonly ended = new AbortController();

  constructor(
    upstream: { transport: Transport; release: () => void },
    private readonly toClient: ToClient,
    private readonly options: CutoverSessionOptions,
  ) {
    this.flows = new ModernFlows(toClient, options);
    this.legacy = new LegacyPump(upstream, (m, related) => this.fromLegacy(m, related), options.log);
    // However the legacy session ends (the client's DELETE, the server gone), the flows end with it.
    this.legacy.onclose = () => {
      this.end('the legacy client session ended');
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.legacy.start();
  }

  async fromClient(message: SessionMessage): Promise<void> {
    if (this.ended.signal.aborted) return;
    const m = message as { id?: RequestId; method?: string; params?: unknown; result?: unknown; error?: unknown };
    const params = isJsonObject(m.params) ? m.params : {};
    if (m.method === undefined) {
      if (this.flows.answered(m)) return;
    } else if (m.id === undefined) {
      if (m.method === 'notifications/cancelled') {
        if (this.flows.cancelled(params)) return;
        const id = params['requestId'];
        if (typeof id === 'string' || typeof id === 'number') this.lists.delete(id);
      }
    } else if (this.request(m.id, m.method, params)) return;
    await this.legacy.fromClient(message);
  }

  async close(reason: string): Promise<void> {
    this.end(reason);
    await this.legacy.close(reason);
  }

  /**
   * A reload changed what is cut over: the client hears that those lists changed, each it was told
   * at initialize the server announces changes of (on its GET stream, as the legacy server's own).
   */
  listsChanged(methods: readonly string[]): void {
    if (this.ended.signal.aborted) return;
    for (const method of methods) if (this.announced.includes(method)) this.toClient({ jsonrpc: '2.0', method }).catch(() => {});
  }

  private end(reason: string): void {
    this.flows.close(reason);
    this.lists.clear();
    this.ended.abort();
  }

  /** Reads a client request on its way to the legacy server; true when it was taken to the migrated server instead. */
  private request(id: RequestId, method: string, params: JsonObject): boolean {
    if (method === 'initialize') {
      this.client = declarationOf(params);
      this.initializeId = id;
    }
    if (method === 'logging/setLevel' && typeof params['level'] === 'string') this.logLevel = params['level'];
    const migrated = this.options.migrated();
    if (!migrated || !this.client) return false;
    if (sideOf(migrated.cutover, method, params, 'session') === 'migrated') {
      const client = { declaration: this.client, logLevel: this.logLevel };
      void this.flows
        .run(id, method, params, migrated.target, client)
        .catch((err: Error) => this.options.log.debug('cutover: could not answer the legacy client', { error: err.message }));
      return true;
    }
    if (CUTOVER_LISTS[method] !== undefined) this.lists.set(id, { method, migrated });
    return false;
  }

  /** What the legacy server sends the client; a list's answer first gets the migrated server's entries. */
  private async fromLegacy(message: SessionMessage, related: RequestId | undefined): Promise<void> {
    const id = message['id'];
    if (id !== undefined && id === this.initializeId && message['method'] === undefined && isJsonObject(message['result']))
      this.announced = announcedChanges(message['result']['capabilities']);
    const list = message['method'] === undefined && (typeof id === 'string' || typeof id === 'number') ? this.lists.get(id) : undefined;
    if (list === undefined || !isJsonObject(message['result']) || !this.client) return this.toClient(message, related);
    this.lists.delete(id as RequestId);
    const signal = AbortSignal.any([this.ended.signal, AbortSignal.timeout(CUTOVER_CHECK_TIMEOUT_MS)]);
    const result = await list.migrated.mergeInto(list.method, message['result'], this.client.capabilities, signal);
    return this.toClient({ ...message, result }, related);
  }
}

/** The list_changed notifications an initialize result's capabilities announce. */
export function announcedChanges(capabilities: unknown): string[] {
  const caps = isJsonObject(capabilities) ? capabilities : {};
  return (['tools', 'prompts', 'resources'] as const)
    .filter((key) => isJsonObject(caps[key]) && (caps[key] as JsonObject)['listChanged'] === true)
    .map((key) => `notifications/${key}/list_changed`);
}
