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
  const prefix = `${DISCOVERED_TARGETS_METRIC}{`;
  for (let start = exposition.indexOf(prefix); start >= 0; start = exposition.indexOf(prefix, start + prefix.length)) {
    // A sample starts a line; the same text inside another metric's name does not count.
    if (start > 0 && exposition[start - 1] !== '\n') continue;
    const labels = parseLabels(exposition, start + prefix.length);
    if (labels.name === 'scrape' && labels.config !== undefined) jobs.add(labels.config);
  }
  return jobs;
}

/**
 * The labels of one sample, `name="value",...}` from `from` on. Values are quoted with `\\`, `\"` and `\n` escaped
 * (the text format's only escapes); job names are user-chosen strings, so all three occur.
 */
function parseLabels(text: string, from: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let index = from;
  while (index < text.length && text[index] !== '}') {
    const equals = text.indexOf('="', index);
    if (equals < 0) break;
    const name = text.slice(index, equals).trim();
    let value = '';
    index = equals + 2;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\\') {
        const escaped = text[index + 1];
        value += escaped === 'n' ? '\n' : (escaped ?? '');
        index += 2;
      } else {
        value += text[index];
        index += 1;
      }
    }
    labels[name] = value;
    index += 1; // the closing quote
    if (text[index] === ',') index += 1;
  }
  return labels;
}
