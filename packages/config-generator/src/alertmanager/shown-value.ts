/** How a team's value appears in a problem message: quoted like JSON, and cut when long (a status holds it). */
import { shortened } from '@promop/prometheus-lang';

/** `value` as a message quotes it: a JSON string, at most MAX_SHOWN_CHARS of it. */
export function shownValue(value: unknown): string {
  return JSON.stringify(typeof value === 'string' ? shortened(value) : value ?? '') ?? '';
}
