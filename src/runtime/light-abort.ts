// A one-shot abort signal of three fields. An AbortController with its AbortSignal (an EventTarget:
// listener maps, a listener record per listener) is several hundred bytes of heap, and a waiting
// user held two of them for as long as they thought (issue 10). LightAbort has the members of
// AbortSignal that the proxy and the v1 SDK's Protocol.request read (`aborted`, `reason`,
// `throwIfAborted`, `addEventListener('abort')`), with the same behaviour: listeners run
// synchronously in `abort()`, in the order they were added, and one added after the abort never runs.

/** What is read of an abort signal here; an AbortSignal is one too. */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

type Listener = () => void;

export class LightAbort implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener | Listener[] | undefined = undefined;

  addEventListener(_type: 'abort', listener: Listener, _options?: { once?: boolean }): void {
    if (this.aborted) return;
    const l = this.listeners;
    if (l === undefined) this.listeners = listener;
    else if (typeof l === 'function') this.listeners = l === listener ? l : [l, listener];
    else if (!l.includes(listener)) l.push(listener);
  }

  removeEventListener(_type: 'abort', listener: Listener): void {
    const l = this.listeners;
    if (l === listener) this.listeners = undefined;
    else if (Array.isArray(l)) {
      const i = l.indexOf(listener);
      if (i >= 0) l.splice(i, 1);
    }
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Aborts once: later calls do nothing. Without a reason, the reason is an AbortError, as for AbortController. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const l = this.listeners;
    this.listeners = undefined;
    if (typeof l === 'function') run(l);
    else if (l) for (const f of l) run(f);
  }
}

/** As for an EventTarget, a listener that throws does not stop the others: its error is uncaught. */
function run(listener: Listener): void {
  try {
    listener();
  } catch (err) {
    process.nextTick(() => {
      throw err;
    });
  }
}
