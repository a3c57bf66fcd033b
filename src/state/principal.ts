// Who a caller is, as a string that requestState binds to: the token's issuer and subject for an
// authenticated HTTP client, the local user for the stdio front, `anonymous` without authentication.
// Logs never carry the principal itself, only `principalTag`: a short one-way hash.
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';

/** Every caller of a route without client authentication. */
export const ANONYMOUS = 'anonymous';

/** Issuer and subject, unambiguously joined (neither may be mistaken for the other). */
export function principalOf(issuer: string, subject: string): string {
  return JSON.stringify([issuer, subject]);
}

/** The stdio front's caller: whoever runs the proxy process (the client launched it). */
export function localUserPrincipal(): string {
  return JSON.stringify(['local', userInfo().username]);
}

/** What logs carry instead of the principal: 16 hex characters of its SHA-256. */
export function principalTag(principal: string): string {
  return createHash('sha256').update(principal).digest('hex').slice(0, 16);
}
