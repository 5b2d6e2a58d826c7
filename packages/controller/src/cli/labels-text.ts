/** Labels as explain prints them: `key=value` pairs sorted by key, or `none`. */
export function labelsText(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? 'none' : keys.map((key) => `${key}=${labels[key]}`).join(', ');
}
