/**
 * How the promop process runs: Node's flags and the environment variables that shape its memory. One place, read by
 * everything that starts the operator the way it is shipped: the promop image (PROMOP_IMAGE_CONFIG in
 * promop-image.ts: its entrypoint and environment; the root Dockerfile's ENTRYPOINT and ENV must spell the same,
 * which dockerfile-agreement.test.ts checks) and the side-by-side benchmark (bench/side-by-side/operators.ts), so the
 * memory the benchmark reports is the memory the image uses. Figures: docs/performance.md, "P3: operator memory".
 */

/**
 * `--max-semi-space-size=8` (MiB): V8 sizes the young generation from the heap limit and, on a machine with a few
 * GiB, lets each semi-space grow to 64 MiB once allocation is heavy (every render of a Prometheus is); those pages
 * stay resident after the work is done, a large share of an idle promop's RSS. Capped at 8 MiB, the settled RSS
 * is much lower for the same CPU time of a render (docs/performance.md, "P3: operator memory"). No heap limit is
 * set: the old generation keeps V8's default, sized from the memory available (a container's limit), which 10,000
 * monitors need. (`--optimize-for-size` saves a little more memory but costs a render far more CPU: not used.)
 */
export const PROMOP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates concurrently an arena of its own (up to 8 per core),
 * and memory freed in an arena mostly stays with the process. Node's V8 and libuv helper threads allocate while
 * modules compile and while garbage is collected; with two arenas the settled RSS is somewhat lower, for no
 * measurable CPU (docs/performance.md, "P3: operator memory").
 */
export const PROMOP_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
