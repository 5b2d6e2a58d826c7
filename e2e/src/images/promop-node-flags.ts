/**
 * The Node flags `promop run` runs with. One list, read by everything that starts the operator the way it is
 * shipped: the promop image's entrypoint (PROMOP_IMAGE_CONFIG in promop-image.ts; the root Dockerfile's
 * ENTRYPOINT must spell the same flags, which dockerfile-agreement.test.ts checks) and the side-by-side
 * benchmark (bench/side-by-side/operators.ts), so the memory the benchmark reports is the memory the image uses.
 *
 * `--max-semi-space-size=8` (MiB): V8 sizes the young generation from the heap limit and, on a machine with a few
 * GiB, lets each semi-space grow to 64 MiB once allocation is heavy (every render of a Prometheus is); those pages
 * stay resident after the work is done. An idle `promop run` with 1,000 ServiceMonitors showed 113 MiB committed
 * to the young generation out of 349 MiB RSS (docs/performance.md, "Side by side", P3). Capped at 8 MiB, the
 * settled RSS at 1,000 monitors went from ~347 to ~257 MiB, and a 10,000-monitor render took the same CPU time
 * (bench/render.bench.ts, within the machine's noise) with a lower peak. No heap limit is set: the old generation
 * keeps V8's default, sized from the memory available (a container's limit), which 10,000 monitors need.
 */
export const PROMOP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
