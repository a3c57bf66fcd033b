// Plain JSON shapes shared by every layer, and the one server-initiated request shape both eras
// use. Types only; nothing here knows about transports or SDK classes.

export type JsonObject = Record<string, unknown>;

export type RequestId = string | number;

/** A request the legacy server sent to its client (the proxy): elicitation, sampling, roots, ... */
export interface ServerRequest {
  id: RequestId;
  method: string;
  params: JsonObject | undefined;
}

/** A root as MCP describes it (`roots/list` result entries). */
export interface Root {
  uri: string;
  name?: string;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
