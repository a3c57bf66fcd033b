// The replay record as it travels inside requestState: JSON, deflated, base64url. The state is
// sealed, so a record that does not decode means a proxy bug or a key shared with something else:
// it is reported as a malformed state, never trusted.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { isInputMethod } from '../protocol/input-requests.js';
import { isJsonObject } from '../protocol/json.js';
import type { RecordEntry } from '../protocol/replay-match.js';
import { StateError } from './seal.js';

/** An inflated record larger than this is refused (a sealed record is at most --max-state-bytes). */
const MAX_INFLATED_BYTES = 4 * 1024 * 1024;

export function encodeRecord(record: readonly RecordEntry[]): string {
  return deflateRawSync(Buffer.from(JSON.stringify(record)), { level: 9 }).toString('base64url');
}

export function decodeRecord(encoded: string): RecordEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(inflateRawSync(Buffer.from(encoded, 'base64url'), { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8'));
  } catch {
    throw new StateError('malformed');
  }
  if (!Array.isArray(parsed) || !parsed.every(isEntry)) throw new StateError('malformed');
  return parsed;
}

function isEntry(e: unknown): e is RecordEntry {
  if (!isJsonObject(e)) return false;
  if (typeof e['n'] !== 'number' || typeof e['m'] !== 'string' || !isInputMethod(e['m']) || typeof e['d'] !== 'string') return false;
  if (e['a'] !== undefined && !isJsonObject(e['a'])) return false;
  if (e['q'] !== undefined && !isJsonObject(e['q'])) return false;
  return e['a'] !== undefined || e['q'] !== undefined;
}
