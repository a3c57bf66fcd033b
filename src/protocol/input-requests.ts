// Legacy server->client requests <-> 2026-07-28 inputRequests. Pure.
//
// A legacy request becomes `{method, params}` without the legacy-only fields (`_meta`, `task`,
// `elicitationId`); the key is readable and unique for the life of the interaction.

export const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
export type InputMethod = (typeof INPUT_METHODS)[number];

export function isInputMethod(method: string): method is InputMethod {
  return (INPUT_METHODS as readonly string[]).includes(method);
}

export interface InputRequest {
  method: InputMethod;
  params?: Record<string, unknown>;
}

const KEY_PREFIX: Record<InputMethod, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The `inputRequests` of a round or a task: each asked request under its key. */
export function inputRequestsOf(asked: Iterable<{ key: string; request: InputRequest }>): Record<string, InputRequest> {
  const inputRequests: Record<string, InputRequest> = {};
  for (const a of asked) inputRequests[a.key] = a.request;
  return inputRequests;
}

/** Key for the `seq`-th legacy request of an interaction: `elicitation-1`, `sampling-2`, ... */
export function inputKey(method: InputMethod, seq: number): string {
  return `${KEY_PREFIX[method]}-${seq}`;
}

/** The method back from a key (`elicitation-1` → `elicitation/create`); undefined for a key no method makes. */
export function inputMethodOf(key: string): InputMethod | undefined {
  const prefix = key.slice(0, key.lastIndexOf('-'));
  return INPUT_METHODS.find((m) => KEY_PREFIX[m] === prefix);
}

/** The position `seq` back from a key: the n-th request the legacy server sent during the call. */
export function inputPosition(key: string): number {
  return Number(key.slice(key.lastIndexOf('-') + 1));
}

const LEGACY_ONLY_PARAMS = ['_meta', 'task', 'elicitationId'];

export function toInputRequest(method: InputMethod, params: Record<string, unknown> | undefined): InputRequest {
  if (method === 'roots/list') return { method };
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (!LEGACY_ONLY_PARAMS.includes(k)) clean[k] = v;
  }
  return { method, params: clean };
}
