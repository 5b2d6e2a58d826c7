/**
 * How much of a user's value a problem repeats. A problem becomes part of the object's status; a 500 KiB value
 * quoted back in full (once per problem) would make the status larger than the API server accepts, and would push
 * the reason itself past the cut verdicts are given (verdict-bounds.ts), so the user would not see why.
 */
export const MAX_SHOWN_CHARS = 120;

/** `text` cut to MAX_SHOWN_CHARS, saying how long it was. */
export function shortened(text: string): string {
  return text.length <= MAX_SHOWN_CHARS ? text : `${text.slice(0, MAX_SHOWN_CHARS)}… (${text.length} characters)`;
}
