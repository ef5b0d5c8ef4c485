function normalized(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

/** Edit distance counting an adjacent swap as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** The declared name `key` was probably meant to be (a typo, a plural, another separator), if any. */
export function nearMiss(key: string, names: readonly string[]): string | undefined {
  const wanted = normalized(key);
  if (wanted.length === 0) return undefined;
  const allowance = wanted.length <= 4 ? 1 : wanted.length <= 9 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = allowance + 1;
  for (const name of names) {
    const distance = editDistance(wanted, normalized(name));
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}
