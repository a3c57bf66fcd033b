// Bounded polling for tests: waits until `cond` holds, or fails with what was being waited for.
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until(cond: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await sleep(20);
  }
}
