// The migrated 2026-07-28 server behind a legacy upstream's cutover: the requests of 2026-07-28
// clients routed to it are relayed as they are (http-relay.ts: its input_required answers and
// requestState reach the client untouched; 2025-era clients reach it through cutover-session.ts),
// and its lists are read for the merged lists and for the check, at start and on reload, that it
// serves every item cut over to it.
import type { Request, Response } from 'express';
import type { CutoverConfig, CutoverItems, CutoverKind } from '../config/cutover.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { CUTOVER_LISTS, entriesOf, listMethodOf, mergeList, missingItems } from '../routing/cutover-lists.js';
import type { Logger } from '../telemetry/logger.js';
import { headerSourceFor, type TokenCache } from '../upstream/client-credentials.js';
import { VERSION } from '../version.js';
import { relayHttp, type RelayTarget } from './http-relay.js';
import { MODERN_VERSION } from './modern-envelope.js';
import { exchange } from './modern-exchange.js';

/** Pages of one list read before the items not found yet count as not listed. */
const MAX_PAGES = 20;
/** How long the start and reload check waits for each list. */
export const CUTOVER_CHECK_TIMEOUT_MS = 10_000;
/** Capabilities the check declares: servers often list asking tools only to clients that can answer. */
const CHECK_CAPABILITIES: JsonObject = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** The migrated server does not serve (or could not be seen to serve) every item cut over to it. */
export class CutoverCheckFailed extends Error {
  override readonly name = 'CutoverCheckFailed';
}

export class MigratedServer {
  /** Where its requests go: its URL and its headers (the configured ones and the proxy's own credentials). */
  readonly target: RelayTarget;
  private seq = 0;

  constructor(
    readonly cutover: CutoverConfig,
    tokens: TokenCache,
    private readonly log: Logger,
  ) {
    this.target = { name: cutover.upstream, url: cutover.target.url, headers: headerSourceFor(cutover.target, tokens) };
  }

  /** Relays one request of a 2026-07-28 client to the migrated server. */
  relay(req: Request, res: Response, raw: Buffer): Promise<void> {
    return relayHttp(this.target, req, res, raw, this.log);
  }

  /**
   * One page of a legacy list with the cut-over items described as the migrated server describes
   * them. A list the migrated server cannot give leaves the legacy entries (logged): the list is
   * the legacy server's, and a call of such an item meets the failure itself.
   */
  async mergeInto(method: string, legacy: JsonObject, capabilities: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    const shape = CUTOVER_LISTS[method];
    if (!shape || this.cutover[shape.kind].length === 0) return legacy;
    let entries: Map<string, JsonObject>;
    try {
      entries = await this.entries(shape.kind, capabilities, signal);
    } catch (err) {
      this.log.warn('the migrated server did not list its cut-over items; they are listed as the legacy server describes them', {
        migrated: this.cutover.upstream,
        method,
        error: (err as Error).message,
      });
      return legacy;
    }
    const { result, kept } = mergeList(method, legacy, entries, this.cutover);
    if (kept.length > 0)
      this.log.warn('the migrated server does not list some cut-over items; they are listed as the legacy server describes them', {
        migrated: this.cutover.upstream,
        method,
        items: kept,
      });
    return result;
  }

  /** Throws, naming each, when the migrated server does not list every item of `items`. */
  async check(items: CutoverItems): Promise<void> {
    const listed: Partial<Record<CutoverKind, ReadonlySet<string>>> = {};
    for (const kind of Object.keys(items) as CutoverKind[]) {
      if (items[kind].length === 0) continue;
      const signal = AbortSignal.timeout(CUTOVER_CHECK_TIMEOUT_MS);
      try {
        listed[kind] = new Set((await this.entries(kind, CHECK_CAPABILITIES, signal)).keys());
      } catch (err) {
        throw new CutoverCheckFailed(`cutover: the migrated server '${this.cutover.upstream}' did not answer ${listMethodOf(kind)}: ${(err as Error).message}`);
      }
    }
    const missing = missingItems(items, listed);
    if (missing.length > 0)
      throw new CutoverCheckFailed(
        `cutover: the migrated server '${this.cutover.upstream}' does not list ${missing.join(', ')}; serve it there first, or leave it out of cutover:`,
      );
  }

  /** The migrated server's entries of one kind that are cut over, by name, read page by page until all are found. */
  private async entries(kind: CutoverKind, capabilities: JsonObject, signal: AbortSignal): Promise<Map<string, JsonObject>> {
    const method = listMethodOf(kind);
    const shape = CUTOVER_LISTS[method]!;
    const wanted = new Set(this.cutover[kind]);
    const found = new Map<string, JsonObject>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params: JsonObject = {
        ...(cursor === undefined ? {} : { cursor }),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'mrtr-proxy', version: VERSION },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      };
      const answer = await exchange(this.target.url, this.target.headers, { id: `cutover-${++this.seq}`, method, params }, signal, () => {});
      const result = answer['result'];
      if (!isJsonObject(result)) {
        const error = isJsonObject(answer['error']) ? answer['error'] : {};
        throw new Error(`${method} answered ${String(error['code'])} ${String(error['message'] ?? '')}`.trim());
      }
      for (const [name, entry] of entriesOf(shape, result)) if (wanted.has(name)) found.set(name, entry);
      cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
      if (cursor === undefined || found.size === wanted.size) break;
    }
    return found;
  }
}
