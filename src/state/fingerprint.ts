// A stable digest of the salient parts of a request, so a requestState only opens on a retry of the
// request it was issued for (spec: originating-request identifier, mrtr.mdx server requirement 5).
import { createHash } from 'node:crypto';

export interface RequestIdentity {
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** Tool or prompt arguments (resources/read has none). */
  args?: unknown;
}

export function fingerprint(id: RequestIdentity): string {
  return createHash('sha256')
    .update(JSON.stringify([id.method, id.target, canonical(id.args ?? null)]))
    .digest('base64url')
    .slice(0, 32);
}

/** JSON with object keys sorted at every depth, so key order never changes the digest. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
