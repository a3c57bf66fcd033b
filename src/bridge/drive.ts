// The one loop over a legacy call's events (Interaction.next): a call a front request waits on
// (modes/held-call.ts) and a hosted task (tasks/hosted-task.ts) both run their legacy call
// through it, each deciding in its own `turn` what a stop leads to.
import type { Interaction, Stop } from './interaction.js';

/** What a turn returns to wait for the call's next event. */
export const GO_ON: unique symbol = Symbol('go on');

export interface Driver<T> {
  /** The window to gather the server's requests in, how long to wait for the next event, and what ends the wait. */
  wait(): { gatherMs: number; timeoutMs: number; signal: AbortSignal };
  /** A stop already there, with no event to wait for (the questions of an open URL-consent gate). */
  held?(): Stop | undefined;
  /** What a stop leads to: an answer ends the loop; GO_ON waits for the next event. `held`: it came from `held`. */
  turn(stop: Stop, held: boolean): Promise<T | typeof GO_ON>;
}

export async function drive<T>(interaction: Interaction, driver: Driver<T>): Promise<T> {
  for (;;) {
    const held = driver.held?.();
    const stop = held ?? (await interaction.next(driver.wait()));
    const answer = await driver.turn(stop, held !== undefined);
    if (answer !== GO_ON) return answer;
  }
}
