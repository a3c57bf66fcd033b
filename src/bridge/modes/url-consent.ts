// The URL-consent gate as a mode: a legacy server that answers a call with -32042 (URL elicitation
// required) has its URL elicitations asked of the client as a held round; once every one is
// answered the call is sent again, on the session whose server asked where it can be, or ended
// when the user declined one (Interaction.awaitUrlConsent, urlConsent).
import { ProxyError } from '../../protocol/errors.js';
import { classifyFailure } from '../../protocol/legacy-errors.js';
import type { JsonObject } from '../../protocol/json.js';
import type { Stop } from '../interaction.js';
import { leaseForCall } from '../ports.js';
import type { HeldCalls } from './held-call.js';
import type { Mode, ModeContext, RunningCall } from './mode.js';

export class UrlConsentMode implements Mode {
  constructor(
    private readonly ctx: ModeContext,
    private readonly calls: HeldCalls,
  ) {}

  /** While the gate is open its questions are the call's next round: nothing is sent upstream until they are answered. */
  pending(call: RunningCall): Stop | undefined {
    const { interaction } = call;
    return interaction.awaitingUrlConsent ? { kind: 'input', pending: interaction.unanswered() } : undefined;
  }

  onStop(call: RunningCall, stop: Stop): Promise<JsonObject> | undefined {
    const { interaction } = call;
    if (stop.kind === 'input' && interaction.awaitingUrlConsent) return this.calls.ask(call, stop.pending);
    if (stop.kind !== 'error') return undefined;
    const failure = classifyFailure(stop.error, stop.lost);
    if (failure.kind !== 'url_required') return undefined;
    interaction.awaitUrlConsent(failure.message, failure.elicitations as JsonObject[]);
    return this.calls.ask(call, interaction.unanswered());
  }

  /** The gate's answers are in: the call is sent again, or ends because the user declined. */
  onResumed(call: RunningCall): Promise<void> | undefined {
    const { owner, interaction } = call;
    const consent = interaction.urlConsent();
    if (consent.kind === 'declined') {
      owner.end({ reason: 'completed', why: `the user did not complete the URL elicitation (${consent.action})` });
      throw new ProxyError(
        'declined',
        'url_elicitation_declined',
        `the user did not complete the URL elicitation the server requires (${consent.action}): ${consent.message}`,
      );
    }
    return consent.kind === 'granted' ? this.sendAgain(call) : undefined;
  }

  private async sendAgain(call: RunningCall): Promise<void> {
    const { owner, interaction, front } = call;
    try {
      // Back to the session whose server asked for the consent, where it can: its state may be per session.
      interaction.start(await leaseForCall(this.ctx.opts.sessions, front, front.roots, interaction.lastSession), front.record);
    } catch (err) {
      owner.end({ reason: 'lost' });
      throw err;
    }
  }
}
