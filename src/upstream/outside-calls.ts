// What the proxy answers when a legacy server asks something while no interactive call holds the
// session, and what it learns from that: a server that asks roots/list outside calls (at
// initialize) reads the roots that decide what it serves, so clients' roots must reach it then.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, Root } from '../protocol/json.js';
import { answerLocally } from '../protocol/local-answers.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { SessionHooks } from './session.js';

/**
 * A server that asked roots/list at initialize applies the answer asynchronously (server-filesystem
 * resolves the directories first), and nothing on the wire says when it is done: a session is
 * handed out this long after that answer.
 */
export const ROOTS_SETTLE_MS = 200;

/**
 * How long a new session waits for the outside-call roots/list of a server known to ask one: this
 * many times the slowest such ask seen after initialize (server-everything asks 350 ms after
 * `notifications/initialized`, on a timer), within these bounds. A server that did not ask by then
 * will not before the call; the call then reads whatever it read.
 */
export const ROOTS_ASK_WAIT_FACTOR = 3;
export const ROOTS_ASK_WAIT_MIN_MS = 1000;
export const ROOTS_ASK_WAIT_MAX_MS = 10_000;

/** How long a session waits for a server's roots/list at initialize, given the slowest ask seen (pure). */
export function rootsAskWaitMs(slowestAskMs: number): number {
  return Math.min(ROOTS_ASK_WAIT_MAX_MS, Math.max(ROOTS_ASK_WAIT_MIN_MS, ROOTS_ASK_WAIT_FACTOR * slowestAskMs));
}

/** One session's local answers, and a wait until a roots answer given at initialize has settled. */
export interface SessionAnswers {
  answerLocally: SessionHooks['answerLocally'];
  /**
   * Pings once: a server that asks at once has asked by then. A server known to ask roots/list
   * outside calls (on any session) is waited for until it asked this one too, within
   * rootsAskWaitMs: some ask on a timer after initialize, and a call sent before would read no
   * roots. Then waits ROOTS_SETTLE_MS if it asked.
   */
  settle(ping: () => Promise<unknown>): Promise<void>;
}

export class OutsideCalls {
  private rootsAsked = false;
  /** The longest seen between opening a session and the server's first roots/list on it. */
  private slowestAskMs = 0;
  private markAsked: () => void = () => {};
  private readonly asked = new Promise<void>((resolve) => {
    this.markAsked = resolve;
  });
  /** Ends once the server asked, or its first session that declares roots was given the time to. */
  private window: Promise<void> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** True once roots/list was asked outside calls on any session of this upstream. */
  get asksRoots(): boolean {
    return this.rootsAsked;
  }

  /**
   * Resolves once `asksRoots` can be trusted: the server asked, or the first session that
   * declares roots (the control session, opened at start) was left ROOTS_ASK_WAIT_MIN_MS after
   * initialize to ask, and did not. Only a request in the first second after start waits.
   */
  rootsKnown(): Promise<void> {
    return this.window ?? Promise.resolve();
  }

  /** Answers for one session, opened now, whose roots/list outside calls is answered with `roots`. */
  forSession(roots: readonly Root[]): SessionAnswers {
    const openedAt = this.clock.now();
    let answered: Promise<unknown> | undefined;
    let onAsked: (() => void) | undefined;
    return {
      answerLocally: (req, session) => {
        const first = req.method === 'roots/list' && answered === undefined;
        if (first) this.slowestAskMs = Math.max(this.slowestAskMs, this.clock.now() - openedAt);
        const answer = this.answer(req.method, session.id, roots);
        // Only whether it settled matters here; the session sends the answer or the error itself.
        if (first)
          answered = answer.then(
            () => undefined,
            () => undefined,
          );
        if (first) onAsked?.();
        return answer;
      },
      settle: async (ping) => {
        this.window ??= Promise.race([this.asked, this.clock.sleep(ROOTS_ASK_WAIT_MIN_MS)]);
        await ping().catch((err: Error) => this.log.debug('the readiness ping failed', { error: err.message }));
        if (!answered && this.rootsAsked) {
          const waitMs = rootsAskWaitMs(this.slowestAskMs);
          const abort = new AbortController();
          onAsked = () => abort.abort();
          await this.clock.sleep(waitMs, abort.signal);
          onAsked = undefined;
          if (!answered) this.log.debug('the legacy server did not ask this session for roots', { waitedMs: waitMs });
        }
        if (answered) await answered.then(() => this.clock.sleep(ROOTS_SETTLE_MS));
      },
    };
  }

  private async answer(method: string, session: string, roots: readonly Root[]): Promise<JsonObject> {
    if (method === 'roots/list' && !this.rootsAsked) {
      this.rootsAsked = true;
      this.markAsked();
      this.log.info('the legacy server asks roots/list outside calls: clients that declare roots get a roots round first', { session });
    }
    const answer = answerLocally(method, roots);
    this.log.info('answered a legacy request locally (no interactive call holds the session)', { session, method });
    if ('error' in answer) throw new McpError(answer.error.code, answer.error.message);
    return answer.result;
  }
}
