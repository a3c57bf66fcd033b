// A test that needs what this machine lacks (a binary, a fetched package, a Python stack, Linux
// /proc) is skipped, loudly: a SKIPPED line on stderr says what and why. In CI (CI=true), which is
// meant to have all of it, the same absence fails the run instead: a green CI run ran every test.
import { test } from 'node:test';

/** A CI run (CI=true), where nothing a test needs may be missing. */
export const IN_CI = process.env['CI'] === 'true';

/**
 * For node:test's `skip` option: `reason` (why the tests of `what` cannot run here), or false when
 * nothing is missing. A reason is said as a SKIPPED line; in CI it is also a failing test of its
 * own. Call it where tests are declared (a module's top level or a describe block), not inside one.
 */
export function skipOrFail(what: string, reason: string | false | undefined): string | false {
  if (!reason) return false;
  process.stderr.write(`SKIPPED ${what}: ${reason}\n`);
  if (IN_CI) {
    test(`${what} runs in CI`, () => {
      throw new Error(`CI=true, so nothing may be missing, yet ${what} cannot run: ${reason}`);
    });
  }
  return reason;
}
