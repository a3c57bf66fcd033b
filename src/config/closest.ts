// "Did you mean": the closest of a set of known names to a mistyped one. Pure. Optimal string
// alignment distance (a swapped pair of letters counts once: --prot is one edit from --port), and a
// name that is the unambiguous start of a known one (--pass-env for --pass-environment).

/** The known name nearest to `word`, or undefined when none is near enough to be a likely typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  if (word.length > 64) return undefined;
  const lower = word.toLowerCase();
  const prefixed = known.filter((k) => lower.length >= 3 && k.toLowerCase().startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
