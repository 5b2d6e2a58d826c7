/**
 * Which scrape jobs a Prometheus has loaded, for configurations whose jobs live in `scrape_config_files`.
 *
 * GET /api/v1/status/config shows only the main file (the list of scrape files, not their jobs), and
 * /api/v1/scrape_pools lists a job only once its service discovery has delivered targets (up to two 5 s ticks
 * after a reload, never for a job whose Kubernetes discovery is denied by RBAC). What reflects the loaded jobs at
 * once is Prometheus' own gauge `prometheus_sd_discovered_targets{name="scrape", config="<job>"}`: the discovery
 * manager sets it to 0 for every job of the new configuration, and deletes it for every removed job, inside the
 * reload that POST /-/reload waits for. Prometheus built with client_golang 1.24+ (3.x of late 2026 on) serves only
 * that metric for `/metrics?name[]=...`; older ones ignore the parameter and send everything, which is parsed the
 * same way, only larger.
 */

/** The metric whose `config` label names every loaded job (`name="scrape"`; `name="notify"` are Alertmanager configs). */
export const DISCOVERED_TARGETS_METRIC = 'prometheus_sd_discovered_targets';

/** The job names in a Prometheus text exposition, from DISCOVERED_TARGETS_METRIC samples of the scrape manager. */
export function scrapeJobsFromMetrics(exposition: string): Set<string> {
  const jobs = new Set<string>();
  for (const sample of exposition.matchAll(SAMPLE)) {
    const labels = new Map<string, string>();
    for (const [, name, value] of sample[1]!.matchAll(LABEL)) labels.set(name!, unescape(value!));
    const job = labels.get('config');
    if (labels.get('name') === 'scrape' && job !== undefined) jobs.add(job);
  }
  return jobs;
}

// A sample starts a line (the same text inside another metric's name does not count); its labels are between the
// braces. Label values are quoted with `\\`, `\"` and `\n` escaped, the text format's only escapes; job names are
// user-chosen strings, so all three occur.
const SAMPLE = new RegExp(`^${DISCOVERED_TARGETS_METRIC}\\{(.*)\\}[ \\t]`, 'gm');
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescape(value: string): string {
  return value.includes('\\') ? value.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped)) : value;
}
