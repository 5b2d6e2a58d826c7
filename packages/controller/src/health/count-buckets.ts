/**
 * Buckets of counts, so a status written from counts that move a little all the time (targets come and go with
 * pods, a firing alert's instances vary) changes only when a count moves a lot: exact below 10, then [10, 16),
 * [16, 32), [32, 64) and so on, each bucket named by its lower bound. Pure.
 */

/** The bucket of `count` (a non-negative integer), named by its lower bound. */
export function countBucket(count: number): number {
  if (!Number.isFinite(count) || count < 10) return Math.max(0, Math.floor(count || 0));
  if (count < 16) return 10;
  return 2 ** Math.floor(Math.log2(count));
}
