// The JSON-RPC id of a raw request body, for errors answered before the body reaches a handler
// (no such upstream, shutting down). A body that is not one request with a string or number id
// gives null, as JSON-RPC says for an id that cannot be read.

export function requestIdOf(raw: Buffer | undefined): string | number | null {
  if (!raw || raw.length === 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const id = (parsed as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
