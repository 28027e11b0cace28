/** Small statistics and formatting helpers shared by the benchmark sections. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Percentile `p` (0–100) of an ascending-sorted array, nearest-rank. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const mb = (bytes: number): string => fmt(bytes / 1024 / 1024, 0) + ' MB';

/** A Markdown table from a header row and rows of cells. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
