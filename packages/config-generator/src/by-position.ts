/**
 * Results kept by position between calls: the controller's caches list objects in a stable order and replace a
 * changed object where it was, so between two calls almost every position holds the very same object, and its
 * result can be reused after one comparison instead of a map lookup. The render memo keeps selections, renderings
 * and scrape file homes this way; the controller keeps each monitor's Secret references.
 */
export class ResultsByPosition {
  readonly #lists = new Map<string, { objects: readonly unknown[]; context: string; results: readonly unknown[] }>();

  /**
   * `compute(object)` for each of `objects`, except where the previous call with this `list` and the same `context`
   * had the very same object (===) at the same position and `stillValid` accepts its result: that result again.
   * An insertion shifts the positions after it, which are then computed again. `stillValid` must check whatever
   * else the result depends on that `context` does not say.
   */
  results<T, R>(list: string, objects: readonly T[], context: string, compute: (object: T) => R, stillValid?: (kept: R) => boolean): R[] {
    const kept = this.#lists.get(list);
    const previous = kept !== undefined && kept.context === context ? kept : undefined;
    const results = new Array<R>(objects.length);
    for (let index = 0; index < objects.length; index += 1) {
      const object = objects[index]!;
      if (previous !== undefined && previous.objects[index] === object) {
        const result = previous.results[index] as R;
        if (stillValid === undefined || stillValid(result)) {
          results[index] = result;
          continue;
        }
      }
      results[index] = compute(object);
    }
    // A copy: a caller may change its array in place before the next call.
    this.#lists.set(list, { objects: objects.slice(), context, results });
    return results;
  }
}
