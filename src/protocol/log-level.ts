// Which legacy log lines a 2026-07-28 request hears. A legacy client chose once per session with
// logging/setLevel; a 2026-07-28 client asks per request (`io.modelcontextprotocol/logLevel`) and
// hears nothing without it. Levels are RFC 5424's, as both revisions name them. Pure.

export const LOG_SEVERITY = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** send: at or above the level asked for; not_asked: the request asked for no logs, or for less; invalid: the line's level is none of the eight. */
export type LogVerdict = 'send' | 'not_asked' | 'invalid';

/**
 * The filter `logging/setLevel` applied, per request: a line at `level` reaches a request that
 * asked for `wanted` when it is at least as severe. A level the request names wrongly (the SDK
 * checks the envelope first) filters nothing out rather than everything.
 */
export function logVerdict(level: unknown, wanted: string | undefined): LogVerdict {
  if (wanted === undefined) return 'not_asked';
  const at = LOG_SEVERITY.indexOf(level as (typeof LOG_SEVERITY)[number]);
  if (at < 0) return 'invalid';
  return at >= LOG_SEVERITY.indexOf(wanted as (typeof LOG_SEVERITY)[number]) ? 'send' : 'not_asked';
}
