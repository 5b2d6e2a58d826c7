/**
 * The most frequent kind of error among many (targets' scrape errors, rules' evaluation errors), pure: each error
 * redacted (redact-error.ts), counted by its kind (errorKind), the kind with most errors reported by one example.
 * Ties and examples are chosen by order of the texts, never by the order Prometheus listed them in, so the same
 * errors give the same report every period.
 */
import { errorKind, redactError } from './redact-error.ts';

/** The most frequent kind of error: one redacted example and how many errors are of that kind. */
export interface FrequentError {
  example: string;
  count: number;
}

/** Counts errors by kind; see the file comment. */
export class ErrorTally {
  readonly #kinds = new Map<string, FrequentError>();

  /** Counts one error (as Prometheus reported it; an empty text is not counted). */
  add(error: string | undefined): void {
    const text = redactError(error ?? '');
    if (text === '') return;
    const kind = errorKind(text);
    const seen = this.#kinds.get(kind);
    if (!seen) this.#kinds.set(kind, { example: text, count: 1 });
    else {
      seen.count += 1;
      if (text < seen.example) seen.example = text;
    }
  }

  /** The kind with most errors (among equals the smallest kind), or undefined when none was counted. */
  mostFrequent(): FrequentError | undefined {
    let best: [string, FrequentError] | undefined;
    for (const entry of this.#kinds) {
      if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[0] < best[0])) best = entry;
    }
    return best?.[1];
  }
}
