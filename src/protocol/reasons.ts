// Every `data.reason` the proxy puts on an error it makes, grouped by its local error code, with
// the one thing the client should do about it (`data.action`). A ProxyError is built from a code and
// one of that code's reasons (errors.ts), so a reason missing here does not compile, and
// docs/errors.md lists the same rows (test/unit/reasons.test.ts compares them). Pure; no numbers:
// JSON-RPC codes stay in errors.ts.

/**
 * What the client should do:
 * - `retry`: send the same request again as it is (later: what refused it is passing);
 * - `resend`: the call is gone; send the original request again from scratch, without
 *   requestState and inputResponses (the user may be asked again);
 * - `fix`: the round is still open; correct inputResponses and retry with the same requestState;
 * - `stop`: do not repeat the request: it would fail the same way.
 */
export type Action = 'retry' | 'resend' | 'fix' | 'stop';

export const REASONS = {
  /** requestState failed to open or does not belong to this request (state/seal.ts StateFailure). */
  state_invalid: {
    malformed: 'stop',
    unauthentic: 'resend',
    expired: 'resend',
    version: 'resend',
    foreign_instance: 'resend',
    wrong_request: 'stop',
    wrong_principal: 'stop',
  },
  /** The suspended interaction a retry names is over (bridge/suspensions.ts Miss), or its owner is. */
  interaction_gone: {
    consumed: 'stop',
    completed: 'resend',
    expired: 'resend',
    cancelled: 'resend',
    lost: 'resend',
    legacy_gave_up: 'resend',
    unknown: 'resend',
    owner_gone: 'resend',
  },
  /** inputResponses malformed: the round stays open. */
  input_invalid: {
    input_responses_invalid: 'fix',
    answer_invalid: 'fix',
  },
  /** The legacy server asked for, or a method needs, something the request's client capabilities do not declare. */
  capability_missing: {
    capability_undeclared: 'stop',
    tasks_extension_undeclared: 'stop',
  },
  /** No upstream session (or owner instance) could be reached or obtained; nothing ran. */
  upstream_unavailable: {
    upstream_unreachable: 'retry',
    sessions_busy: 'retry',
    shutting_down: 'retry',
    owner_unreachable: 'retry',
  },
  /** The call would need a share of the legacy sessions that is used up. */
  overloaded: {
    waiting_limit: 'retry',
  },
  /** This principal already runs or waits on as many calls as it may. */
  principal_limit: {
    principal_limit: 'retry',
  },
  /** The upstream server or its transport failed during the call, or the call was cancelled. */
  upstream_failed: {
    legacy_session_lost: 'resend',
    upstream_incomplete: 'retry',
    client_cancelled: 'stop',
    tasks_not_configured: 'retry',
    upstream_invalid: 'stop',
    client_refused: 'stop',
  },
  /** The proxy's own per-call timeout fired. */
  timeout: {
    call_timeout: 'stop',
  },
  /** The user declined input the legacy server cannot do without. */
  declined: {
    url_elicitation_declined: 'stop',
  },
  /** The shared state store cannot be reached (replay retries fail closed; other instances' tasks cannot be read). */
  store_unavailable: {
    state_store_unavailable: 'retry',
  },
  /** A task id that names no task this proxy holds for the caller (tasks extension). */
  task_unknown: {
    unknown: 'stop',
    expired: 'resend',
    owner_gone: 'resend',
  },
  /** A 2025-era client's session holds as many of something as one session may. */
  session_limit: {
    subscription_limit: 'stop',
  },
  /** A fault of the proxy itself. */
  internal: {
    internal: 'stop',
  },
} as const satisfies Record<string, Record<string, Action>>;

/** The local error families: each becomes one JSON-RPC code (errors.ts). */
export type ProxyErrorCode = keyof typeof REASONS;

/** The reasons an error of `C` may carry (of a union of codes: any of theirs). */
export type ReasonOf<C extends ProxyErrorCode> = C extends ProxyErrorCode ? keyof (typeof REASONS)[C] & string : never;

export function actionOf<C extends ProxyErrorCode>(code: C, reason: ReasonOf<C>): Action {
  return (REASONS[code] as Record<string, Action>)[reason]!;
}

/** Every (code, reason, action) row of the table, in its order. */
export function reasonRows(): { code: ProxyErrorCode; reason: string; action: Action }[] {
  return Object.entries(REASONS).flatMap(([code, reasons]) =>
    Object.entries(reasons as Record<string, Action>).map(([reason, action]) => ({ code: code as ProxyErrorCode, reason, action })),
  );
}
