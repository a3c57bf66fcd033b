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

/** One session's local answers, and a wait until a roots answer given at initialize has settled. */
export interface SessionAnswers {
  answerLocally: SessionHooks['answerLocally'];
  /** Pings once: a server that asks at initialize has asked by then; then waits ROOTS_SETTLE_MS if it did. */
  settle(ping: () => Promise<unknown>): Promise<void>;
}

export class OutsideCalls {
  private rootsAsked = false;

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** True once roots/list was asked outside calls on any session of this upstream. */
  get asksRoots(): boolean {
    return this.rootsAsked;
  }

  /** Answers for one session, whose roots/list outside calls is answered with `roots`. */
  forSession(roots: readonly Root[]): SessionAnswers {
    let answered: Promise<unknown> | undefined;
    return {
      answerLocally: (req, session) => {
        const answer = this.answer(req.method, session.id, roots);
        if (req.method === 'roots/list') answered ??= answer.catch(() => {});
        return answer;
      },
      settle: async (ping) => {
        await ping().catch(() => {});
        if (answered) await answered.then(() => this.clock.sleep(ROOTS_SETTLE_MS));
      },
    };
  }

  private async answer(method: string, session: string, roots: readonly Root[]): Promise<JsonObject> {
    if (method === 'roots/list' && !this.rootsAsked) {
      this.rootsAsked = true;
      this.log.info('the legacy server asks roots/list outside calls: clients that declare roots get a roots round first', { session });
    }
    const answer = answerLocally(method, roots);
    this.log.info('answered a legacy request locally (no interactive call holds the session)', { session, method });
    if ('error' in answer) throw new McpError(answer.error.code, answer.error.message);
    return answer.result;
  }
}
