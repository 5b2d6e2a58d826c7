/**
 * How much of a user's value a problem repeats. A problem becomes part of the object's status; a 500 KiB value
 * quoted back in full (once per problem) would make the status larger than the API server accepts, and would push
 * the reason itself past the cut promop gives verdicts (the generator's verdict-bounds.ts), so the user would not
 * see why. Here, below the generator, so the language checks' messages and the generator's cut text the same way.
 */
import { formatCount } from './format-count.ts';

export const MAX_SHOWN_CHARS = 120;

/** `text` cut to MAX_SHOWN_CHARS, saying how long it was. */
export function shortened(text: string): string {
  return shortenedTo(text, MAX_SHOWN_CHARS);
}

/** `text` cut to `maxChars`, saying how long it was: the one way promop shortens what it shows of a text. */
export function shortenedTo(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… (${formatCount(text.length)} characters)`;
}
