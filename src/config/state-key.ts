// One requestState key's text (from --state-key, --state-key-file or the environment), checked for
// the one format it has (32 bytes, base64url) with errors that say what the text looks like and how
// to make a key, never the text itself. Several keys (rotation) are split in instances.ts.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../protocol/errors.js';

/** The key file's text, surrounding whitespace (a trailing newline) dropped. */
export function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`--state-key-file: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** How to make a key, quoted in every key error. */
export const MAKE_A_KEY = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

/** What a key looks like and how to make one, quoted in every key error. */
export const KEY_FORMAT = `expected 32 random bytes in base64url (43 characters of A-Z a-z 0-9 - _, no '=' padding); make one with: ${MAKE_A_KEY}`;

/** What is wrong with a state key's text, in words that never repeat it; undefined when it is good. */
export function keyProblem(raw: string): string | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return 'this looks like hex (64 hex digits)';
  if (/^[A-Za-z0-9+/]+={1,2}$/.test(raw) || /[+/]/.test(raw)) return "this looks like standard base64 ('+', '/' or '=' padding)";
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return 'it has characters base64url does not use';
  const length = Buffer.from(raw, 'base64url').length;
  return length === 32 ? undefined : `it decodes to ${length} bytes, not 32`;
}

/** The key's bytes; `source` names where it came from in the error (never the value: it is a secret). */
export function parseKey(raw: string, source: string): Uint8Array {
  if (raw === '') throw new ConfigError(`${source}: empty; ${KEY_FORMAT}`);
  const problem = keyProblem(raw);
  if (problem) throw new ConfigError(`${source}: ${problem}; ${KEY_FORMAT}`);
  return new Uint8Array(Buffer.from(raw, 'base64url'));
}
