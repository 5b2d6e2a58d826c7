/**
 * The value `build` makes for `object`, made once and kept in `cache` for as long as the object lives. The render
 * memo and the controller keep several things this way (a job's YAML, a rendering's verdict, a monitor's key, a
 * file's size): the caches hand out the same object until it changes, so "same object" means "nothing to redo".
 */
export function oncePerObject<K extends object, V>(cache: WeakMap<K, V>, object: K, build: () => V): V {
  let value = cache.get(object);
  if (value === undefined) {
    value = build();
    cache.set(object, value);
  }
  return value;
}
