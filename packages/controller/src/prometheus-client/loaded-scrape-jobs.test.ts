import { scrapeJobsFromMetrics } from './loaded-scrape-jobs.ts';

describe('the loaded scrape jobs, read from prometheus_sd_discovered_targets', () => {
  it('are the config label of the scrape manager\'s samples, not the notifier\'s', () => {
    const exposition = [
      '# HELP prometheus_sd_discovered_targets Current number of discovered targets.',
      '# TYPE prometheus_sd_discovered_targets gauge',
      'prometheus_sd_discovered_targets{config="config-0",name="notify"} 1',
      'prometheus_sd_discovered_targets{config="serviceMonitor/team-a/api/0",name="scrape"} 3',
      'prometheus_sd_discovered_targets{config="node",name="scrape"} 0',
      '',
    ].join('\n');
    expect([...scrapeJobsFromMetrics(exposition)]).toEqual(['serviceMonitor/team-a/api/0', 'node']);
  });

  it('undo the text format\'s escapes in job names, whatever the label order', () => {
    const exposition = 'prometheus_sd_discovered_targets{name="scrape",config="say \\"hi\\" \\\\ there\\nnow"} 0\n';
    expect([...scrapeJobsFromMetrics(exposition)]).toEqual(['say "hi" \\ there\nnow']);
  });

  it('ignore every other metric of a whole /metrics page (older Prometheus ignores the name[] filter)', () => {
    const exposition = [
      'xprometheus_sd_discovered_targets{config="not-this-either",name="scrape"} 0',
      'prometheus_sd_last_update_timestamp_seconds{config="other",name="scrape"} 1.7e+09',
      'prometheus_target_scrape_pool_targets{scrape_job="other"} 0',
      'prometheus_sd_discovered_targets{config="kept",name="scrape"} 0',
      'xprometheus_sd_discovered_targets{config="not-this",name="scrape"} 0',
    ].join('\n');
    expect([...scrapeJobsFromMetrics(exposition)]).toEqual(['kept']);
  });

  it('are none in an empty answer', () => {
    expect(scrapeJobsFromMetrics('')).toEqual(new Set());
  });
});
