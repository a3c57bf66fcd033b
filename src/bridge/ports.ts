// What the bridge needs of the legacy side, as interfaces: a source of session leases and
// the few members of a session it uses. The upstream layer satisfies them structurally; the bridge
// never imports the pool or the session classes, so unit tests and the bench plug in a fake.
import { type FrontCapabilities, type LegacyCapabilities, legacyCapabilitiesFor } from '../protocol/capabilities.js';
import type { JsonObject, Root, ServerRequest } from '../protocol/json.js';
import type { RootsBinding } from '../protocol/roots.js';
import type { FrontRecord } from '../telemetry/ports.js';

/** The interactive call a legacy request belongs to receives it, and its logs. */
export interface SessionHolder {
  /** Waiting for its client's answers: its legacy handler cannot ask anything until they come. */
  readonly parked?: boolean;
  /** Settles with the result to send back; rejects with an McpError to send an error. */
  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject>;
  onLog(params: JsonObject): void;
}

/** The part of a legacy session an interaction drives. */
export interface BridgeSession {
  /** Receives what would otherwise get the local answer (a request of no call in flight); see let-go.ts. */
  holder: SessionHolder | undefined;
  readonly closed: boolean;
  readonly closeReason: string;
  /** Whether the legacy server is a local process whose state `running` reads (stdio). */
  readonly localProcess?: boolean;
  /**
   * True while the legacy server's local process runs rather than waits for input: any of its
   * threads, or its main thread only; absent or undefined: unknown.
   */
  running?(threads: 'all' | 'main'): boolean | undefined;
  /** The revision negotiated at initialize; answers are shaped for it. */
  readonly negotiatedVersion: string;
  /**
   * With `holder`, the legacy requests of this call go to it (see upstream/attribution.ts);
   * `untied`: it holds a runner or exclusive lease (its requests may come without provenance).
   */
  request(
    method: string,
    params: JsonObject | undefined,
    opts?: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void; holder?: SessionHolder; untied?: boolean; record?: FrontRecord },
  ): Promise<JsonObject>;
}

/** See upstream/pool/lease.ts: shared runs beside anything, a runner alone among untied calls while it runs, exclusive alone. */
export type LeaseMode = 'exclusive' | 'shared' | 'runner';

export interface SessionLease<S = BridgeSession> {
  readonly session: S;
  /** Shared: other calls use the session too, so ending this call must not close it. Absent: exclusive. */
  readonly mode?: LeaseMode;
  /** Returns a healthy session to its pool. Idempotent. */
  release(): void;
  /** Closes the session (its state is unknown or spoiled). Idempotent. */
  discard(reason: string): void;
  /** The holder now waits for a client; false when no more sessions may wait (it must not). */
  markWaiting(): boolean;
  /** The waiting holder cannot ask any more (see Interaction.startWaiting): a runner gives up its runner slot. */
  markParked(): void;
  /** The holder works again, once this resolves (a runner has its session's runner slot back). */
  markActive(): Promise<void>;
}

export interface SessionSource {
  /**
   * A session initialized with `caps` whose outside-call `roots/list` is answered with `roots`
   * (the operator's when undefined), held (exclusively, or shared with other calls) until the
   * lease is released or discarded.
   */
  acquire(caps: LegacyCapabilities, mode: LeaseMode, roots?: RootsBinding, prefer?: BridgeSession, principal?: string): Promise<SessionLease>;
  /** How an interactive call to `method` with `params` is leased (perhaps once an earlier call tells); absent: exclusively. */
  leaseModeFor?(method: string, params: JsonObject): LeaseMode | Promise<LeaseMode>;
  /** True once the legacy server has asked `roots/list` outside a call on any of its sessions. */
  asksRootsOutsideCalls(): boolean;
  /** Resolves once asksRootsOutsideCalls can be trusted (the first second after start); absent: at once. */
  rootsKnown?(): Promise<void>;
  /** The operator's roots (`--root`, per upstream `roots:`). */
  operatorRoots(): readonly Root[];
  /**
   * The sessions calls waiting for their clients and tasks may hold together (--waiting-share of
   * --max-sessions), and whether one more exclusive holder fits now. Absent: no share is kept.
   */
  waitingShare?(): { max: number; room: boolean };
}

/** What the bridge asks of the upstream to decide whether a tools/call runs as a legacy task (tasks/task-dispatch.ts). */
export interface ToolTasks {
  /** Whether the legacy server runs tools as tasks (its 2025-11-25 `tasks` capability). */
  runsToolTasks(): Promise<boolean>;
  /** A tool's 2025-11-25 `execution` (its task support), listing the tools if it is not known yet. */
  toolExecution(name: string, caps: LegacyCapabilities, record?: FrontRecord, principal?: string): Promise<JsonObject | undefined>;
}

export type { InteractionObserver } from '../protocol/interaction-observer.js';

/**
 * A session for an interactive call: shared where its legacy requests can be attributed to it
 * (upstream/ask-learning.ts), which may have to wait for an earlier call of the same tool to tell.
 */
export async function leaseForCall(
  sessions: SessionSource,
  call: { method: string; params: JsonObject; capabilities: FrontCapabilities; principal?: string },
  roots?: RootsBinding,
  prefer?: BridgeSession,
): Promise<SessionLease> {
  const mode = (await sessions.leaseModeFor?.(call.method, call.params)) ?? 'exclusive';
  return sessions.acquire(legacyCapabilitiesFor(call.capabilities), mode, roots, prefer, call.principal);
}
