// Bounded label values for metrics and span names. Everything here comes from a fixed list; a
// value a client or a legacy server made up becomes `other`, so no request can grow a time series. Pure.

/** MCP methods of every revision the proxy serves or speaks (2024-11-05 to 2026-07-28). */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/update',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
]);

/** What a request without a method is labelled (a legacy client's response, a GET stream, ...). */
export const NO_METHOD = {
  response: 'response',
  batch: 'batch',
  stream: 'stream',
  delete: 'delete',
  unreadable: 'unreadable',
} as const;

export const OTHER = 'other';

/** The JSON-RPC method as a label: a known MCP method, or `other` (vendor and unknown methods). */
export function methodLabel(method: unknown): string {
  if (typeof method !== 'string') return OTHER;
  return KNOWN_METHODS.has(method) || (Object.values(NO_METHOD) as string[]).includes(method) ? method : OTHER;
}

export type InputLabel = 'elicitation' | 'sampling' | 'roots';

const INPUT_LABELS: Readonly<Record<string, InputLabel>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The `input` label of a legacy request the client is asked to answer; undefined for any other method. */
export function inputLabel(method: string): InputLabel | undefined {
  return INPUT_LABELS[method];
}

/** How the proxy served a front request (the access log's `mode`). */
export type ServeMode = 'interactive' | 'task' | 'passthrough' | 'legacy-client' | 'relay' | 'local';

/** How one shadow comparison ended (mrtr_shadow_comparisons_total's `outcome`). */
export type ShadowOutcomeLabel = 'match' | 'differ' | 'candidate_error' | 'skipped';

/** A front request's outcome (the `outcome` label). */
export type Outcome = 'complete' | 'input_required' | 'error';

export function outcomeOf(httpStatus: number, code: number | undefined, inputRequired: boolean): Outcome {
  if (code !== undefined || httpStatus >= 400) return 'error';
  return inputRequired ? 'input_required' : 'complete';
}
