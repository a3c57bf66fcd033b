// Graceful drain of the HTTP listener. Once draining, /readyz answers 503 and new MCP requests a
// JSON-RPC error with HTTP 503; requests already running are counted per upstream and may finish
// within that upstream's drain timeout. Streams that never end by design (a legacy client's GET
// stream, subscriptions/listen) are not waited for: closing the listener ends them.
import type { Request, Response } from 'express';
import { proxyErrorBody } from '../protocol/encode-error.js';
import { ProxyError, requestIdOf } from '../protocol/errors.js';
import type { Clock } from '../clock.js';

export const SHUTTING_DOWN = 'mrtr-proxy is shutting down; send the request again (another instance, or this one once restarted)';

export class DrainGate {
  private draining = false;
  private readonly running = new Map<string, Set<Response>>();
  private readonly waiters = new Set<() => void>();

  get isDraining(): boolean {
    return this.draining;
  }

  /** Lets a request in (and counts it for `route`), or answers 503 once draining. */
  admit(route: string, req: Request, res: Response, body: unknown): boolean {
    if (this.draining) {
      res
        .status(503)
        .set('Connection', 'close')
        .json(proxyErrorBody(requestIdOf(body), new ProxyError('upstream_unavailable', 'shutting_down', SHUTTING_DOWN)));
      return false;
    }
    if (!waitedFor(req)) return true;
    const set = this.running.get(route) ?? new Set<Response>();
    this.running.set(route, set);
    set.add(res);
    res.once('close', () => {
      set.delete(res);
      for (const w of this.waiters) w();
    });
    return true;
  }

  /** Requests being waited for, per upstream name. */
  runningCount(route?: string): number {
    if (route !== undefined) return this.running.get(route)?.size ?? 0;
    return [...this.running.values()].reduce((n, s) => n + s.size, 0);
  }

  /**
   * Stops admitting requests and resolves once every upstream's running requests finished, or its
   * timeout passed. Resolves with the number of requests still running.
   */
  async drain(timeoutMsOf: (route: string) => number, clock: Clock): Promise<number> {
    this.draining = true;
    await Promise.all([...this.running.keys()].map((route) => this.settle(route, timeoutMsOf(route), clock)));
    return this.runningCount();
  }

  private settle(route: string, timeoutMs: number, clock: Clock): Promise<void> {
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.runningCount(route) > 0) return;
        finish();
      };
      const cancel = clock.after(timeoutMs, () => finish());
      const finish = () => {
        cancel();
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** A request the drain waits for: a POST that answers, not a stream that lasts by design. */
function waitedFor(req: Request): boolean {
  return req.method === 'POST' && req.get('mcp-method') !== 'subscriptions/listen';
}
