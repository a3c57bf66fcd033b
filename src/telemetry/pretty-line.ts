// The pretty log line: time, level, message, then the entry's other fields as key=value, all on
// one line whatever the fields hold, so that a line read in a terminal is one entry. Pure: the
// logger (logger.ts) adds the time and, on a terminal, the level's color.

/** The fields the line's head already shows. */
const HEAD = new Set(['level', 'message', 'timestamp']);
/** The longest level name, so that messages line up. */
const LEVEL_WIDTH = 5;
/** A value written as it is: no space, quote, backslash, `=` or control character to confuse a reader or a terminal. */
const BARE = /^[^\s"\\=\p{Cc}]+$/u;
const CONTROL = /\p{Cc}/gu;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `time level message key=value ...`. `level` may carry color codes (winston's colorize), so
 * `rawLevel` gives the width to pad to. Strings with spaces (or anything else that would make
 * the pair ambiguous) are quoted as JSON strings; objects and arrays are compact JSON.
 */
export function prettyLine(info: Record<string, unknown>, rawLevel: string): string {
  const level = String(info['level']);
  const head = `${String(info['timestamp'] ?? '')} ${level}${' '.repeat(Math.max(0, LEVEL_WIDTH - rawLevel.length))} ${escapeControls(String(info['message'] ?? ''))}`;
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(info)) {
    if (HEAD.has(key) || value === undefined) continue;
    pairs.push(`${key}=${formatValue(value)}`);
  }
  return pairs.length === 0 ? head : `${head} ${pairs.join(' ')}`;
}

export function formatValue(value: unknown): string {
  if (typeof value === 'string') return BARE.test(value) ? value : escapeControls(JSON.stringify(value));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (value instanceof Error) return escapeControls(JSON.stringify(value.message));
  try {
    return escapeControls(JSON.stringify(value) ?? String(value));
  } catch {
    return '"[unserializable]"';
  }
}

/**
 * Line breaks and other control characters as JSON escapes (`\n`, `\u001b`): JSON.stringify leaves DEL and the C1 range
 * as they are, and a terminal would act on an escape sequence a legacy server wrote to its stderr.
 */
function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
