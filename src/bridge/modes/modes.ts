// The modes of one bridge, in the order they are asked (mode.ts). The one list a new mode joins:
// a mode that begins a request must come before the held call, which serves whatever no other
// mode does and so comes last.
import { HeldCalls } from './held-call.js';
import { HostedTaskMode } from './hosted-task.js';
import { LegacyTaskMode } from './legacy-task.js';
import type { Mode, ModeContext } from './mode.js';
import { ReplayMode } from './replay.js';
import { RootsMode } from './roots.js';
import { UrlConsentMode } from './url-consent.js';

export function modesOf(ctx: ModeContext): { calls: HeldCalls; modes: readonly Mode[] } {
  let modes: readonly Mode[] = [];
  const calls = new HeldCalls(ctx, () => modes);
  // The hosted task asks its roots inside the task, so it comes before the roots round; the roots
  // round comes before the modes that send the call.
  const before = [HostedTaskMode, RootsMode, LegacyTaskMode, UrlConsentMode, ReplayMode].map((Kind) => new Kind(ctx, calls));
  modes = [...before, calls];
  return { calls, modes };
}
