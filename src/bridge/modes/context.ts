// What the modes of one bridge share (ModeContext), built from the bridge's options: the
// suspension table and the principals' load its owners release into, the event stream its owners
// tell (heard by telemetry and the observer, event-listeners.ts), its task table.
import { NO_TELEMETRY } from '../../telemetry/ports.js';
import { allOf, observerListener, telemetryListener } from '../event-listeners.js';
import type { BridgeLimits, BridgeOptions } from '../front-call.js';
import type { DropNotification } from '../interaction.js';
import { InteractionOwner } from '../owner.js';
import { PrincipalLoad } from '../principal-load.js';
import { SuspensionTable } from '../suspensions.js';
import { bridgeTaskTable } from '../tasks/bridge-tasks.js';
import type { ModeContext } from './mode.js';

export function modeContext(opts: BridgeOptions, limits: () => BridgeLimits): ModeContext {
  const telemetry = opts.telemetry ?? NO_TELEMETRY;
  const dropNotification: DropNotification = (method, reason, detail) => telemetry.notificationDropped(method, reason, detail);
  const emit = allOf([telemetryListener(telemetry), ...(opts.observer ? [observerListener(opts.observer)] : [])]);
  const owners = { suspended: new SuspensionTable<InteractionOwner>(), load: new PrincipalLoad(), emit };
  return {
    opts,
    clock: opts.clock,
    log: opts.log,
    telemetry,
    limits,
    ...owners,
    tasks: bridgeTaskTable(opts, limits, dropNotification),
    dropNotification,
    own: (subject, principal, origin) => new InteractionOwner(subject, principal, owners, origin),
  };
}
