// The JSON-RPC id of a parsed request body, for errors answered before the body reaches a handler
// (no such upstream, shutting down). A body that is not one request with a string or number id
// gives null, as JSON-RPC says for an id that cannot be read.

export function requestIdOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
