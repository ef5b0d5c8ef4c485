/** The element at quantile `q` of already sorted samples (0 when there are none). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The element at quantile `q` of samples in any order. */
export function percentile(samples: readonly number[], q: number): number {
  return quantile(
    [...samples].sort((a, b) => a - b),
    q,
  );
}

/** The upper middle of the samples (the element at half their count, once sorted). */
export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}
