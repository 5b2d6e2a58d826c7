/**
 * How promop decides that the config Prometheus serves back is the one it wrote, despite Prometheus'
 * re-serialisation (the real-server proof is in loaded-config-comparison.prometheus.test.ts).
 */
import { compareLoadedConfig } from './loaded-config-comparison.ts';

const written = `global:
  scrape_interval: 60s
  external_labels:
    prometheus: monitoring/main
    prometheus_replica: \${POD_NAME}
scrape_configs:
- job_name: serviceMonitor/team/web/0
  honor_labels: false
  bearer_token_file: /var/run/secrets/kubernetes.io/serviceaccount/token
  basic_auth:
    username: scraper
    password: hunter2
  relabel_configs:
  - action: Replace
    source_labels: [__meta_kubernetes_pod_name]
    target_label: pod
  static_configs:
  - targets: ['127.0.0.1:8080']
`;

const servedBack = `global:
  scrape_interval: 1m
  scrape_timeout: 10s
  external_labels:
    prometheus: monitoring/main
    prometheus_replica: prometheus-main-0
scrape_configs:
- job_name: serviceMonitor/team/web/0
  honor_timestamps: true
  authorization:
    type: Bearer
    credentials_file: /var/run/secrets/kubernetes.io/serviceaccount/token
  basic_auth:
    username: scraper
    password: <secret>
  relabel_configs:
  - source_labels: [__meta_kubernetes_pod_name]
    separator: ;
    regex: (.*)
    target_label: pod
    replacement: $1
    action: replace
  static_configs:
  - targets:
    - 127.0.0.1:8080
`;

describe('comparing the config promop wrote with the one Prometheus reports loaded', () => {
  it('ignores defaults, canonical durations, masked secrets, the expanded replica label and the moved bearer token file', () => {
    expect(compareLoadedConfig(written, servedBack)).toEqual({ equal: true });
  });

  it('sees a changed target and says where', () => {
    expect(compareLoadedConfig(written.replace('127.0.0.1:8080', '127.0.0.1:8081'), servedBack)).toEqual({
      equal: false, path: 'scrape_configs[0].static_configs[0].targets[0]', expected: '"127.0.0.1:8081"', loaded: '"127.0.0.1:8080"',
    });
  });

  it('sees a different interval even though both are valid durations', () => {
    expect(compareLoadedConfig(written.replace('60s', '90s'), servedBack)).toMatchObject({ equal: false, path: 'global.scrape_interval' });
  });

  it('sees an added job', () => {
    const withJob = `${written}- job_name: extra\n  static_configs: []\n`;
    expect(compareLoadedConfig(withJob, servedBack)).toMatchObject({ equal: false, path: 'scrape_configs', expected: 'a list of 2', loaded: 'a list of 1' });
  });

  it('sees a changed external label other than the expanded part', () => {
    const other = servedBack.replace('prometheus_replica: prometheus-main-0', 'prometheus_replica: other');
    expect(compareLoadedConfig(written.replace('${POD_NAME}', 'prometheus-${POD_NAME}'), other)).toMatchObject({ equal: false, path: 'global.external_labels.prometheus_replica' });
  });

  it('never puts a credential promop wrote into the difference', () => {
    const noAuth = servedBack.replace(/ {2}basic_auth:\n.*\n.*\n/, '');
    const result = compareLoadedConfig(written, noAuth);
    expect(result).toMatchObject({ equal: false, path: 'scrape_configs[0].basic_auth' });
    expect(JSON.stringify(result)).not.toContain('hunter2');
    const passwordOnly = compareLoadedConfig(written, servedBack.replace('    password: <secret>\n', ''));
    expect(passwordOnly).toEqual({ equal: false, path: 'scrape_configs[0].basic_auth.password', expected: '<secret>', loaded: '(absent)' });
  });

  it('reports unparsable loaded text as a difference, not an exception', () => {
    expect(compareLoadedConfig(written, 'global: [')).toMatchObject({ equal: false, loaded: expect.stringMatching(/^unparsable YAML/) });
  });
});
