// A session whose call was let go (replay) is not handed to the next call at once. The legacy
// server's handler may still be running: it learns of the cancellation and of the errors the proxy
// answered its open requests with only a moment later, and a handler that asks once more in that
// moment would otherwise reach whichever call holds the session next, on stdio even another user's.
// So the session (or a shared session's runner slot) stays held here until the server has been
// quiet for `quietMs`, every request it sends meanwhile is refused, and a server that keeps asking
// for `maxMs` loses the session (with the calls parked on it: none of them can be told apart from it).
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC } from '../protocol/errors.js';
import type { JsonObject, ServerRequest } from '../protocol/json.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { SessionHolder, SessionLease } from './ports.js';

export const LET_GO_QUIET_MS = 150;
export const LET_GO_MAX_MS = 2000;

export function settleThenRelease(lease: SessionLease, clock: Clock, log: Logger, quietMs = LET_GO_QUIET_MS, maxMs = LET_GO_MAX_MS): void {
  // A shared call's requests are attributed to it (tied, or it never asks): nothing of the
  // cancelled call can reach another. A runner keeps its session's runner slot meanwhile, so the
  // untied requests it may still send come here rather than to the next runner.
  if (lease.mode === 'shared') return lease.release();
  const start = clock.now();
  let lastHeard = start;
  const holder: SessionHolder = {
    onServerRequest(request: ServerRequest): Promise<JsonObject> {
      lastHeard = clock.now();
      log.debug('refused a request from a cancelled legacy call', { method: request.method });
      return Promise.reject(new McpError(JSONRPC.INTERNAL_ERROR, 'the call that asked for this was cancelled'));
    },
    onLog() {},
  };
  lease.session.holder = holder;
  const check = () => {
    if (lease.session.holder !== holder) return;
    const now = clock.now();
    if (lease.session.closed) return done(() => lease.discard('session closed'));
    if (now - lastHeard >= quietMs) return done(() => lease.release());
    if (now - start >= maxMs) return done(() => lease.discard('the legacy server kept asking after its call was cancelled'));
    clock.after(Math.min(quietMs - (now - lastHeard), maxMs - (now - start)), check);
  };
  const done = (dispose: () => void) => {
    lease.session.holder = undefined;
    dispose();
  };
  clock.after(quietMs, check);
}
