/** `1,468,006`: a count or size written for people in a verdict, the same on every machine whatever its locale. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
