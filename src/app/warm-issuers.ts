// Discovers every configured authorization server at start and on reload, so a wrong issuer
// shows in the log at once, not at the first request (which would get 503 until it is reachable).
// Only a failure is worth a person's attention; a discovery that worked is at debug.
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { ProxyConfig } from '../config/types.js';
import type { Logger } from '../telemetry/logger.js';

export function warmIssuers(config: ProxyConfig, verifier: TokenVerifier | undefined, log: Logger): void {
  if (!verifier) return;
  const issuers = new Set(config.upstreams.flatMap((u) => (u.clientAuth ? [u.clientAuth.issuer] : [])));
  for (const issuer of issuers) {
    verifier.warm(issuer).then(
      () => log.debug('authorization server discovered', { issuer }),
      (err: Error) => log.warn('authorization server not reachable yet; requests are refused with 503 until it is', { issuer, error: err.message }),
    );
  }
}
