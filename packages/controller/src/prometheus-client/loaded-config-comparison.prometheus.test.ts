/**
 * The comparison must call a real loaded config equal to what promop rendered, or every reload would end
 * `stale`. Proven on the biggest input we have: the kube-prometheus stack rendered by promop (22 jobs with
 * kubernetes_sd_configs, TLS, bearer token files, relabelings; 8 PrometheusRules), loaded into Prometheus 3.16.
 * Outside a cluster, kubernetes_sd_configs without `api_server` discover (and dial) nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { RULES_DIR } from '@promop/config-generator';
import { REPO_ROOT, startPrometheus, type PrometheusProcess } from '@promop/testkit';
import { readManifests } from '../cli/manifest-reader.ts';
import { renderManifests } from '../cli/render-command.ts';
import { compareLoadedConfig } from './loaded-config-comparison.ts';
import { compareLoadedRules, type LoadedRuleGroup } from './rule-groups-comparison.ts';

const IN_POD_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const CORPUS = resolve(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus');

describe('the kube-prometheus config and rules promop renders, as a real Prometheus reports them loaded', () => {
  let dir: string;
  let config: string;
  const ruleFiles: Record<string, string> = {};
  let prometheus: PrometheusProcess;

  beforeAll(async () => {
    const output = renderManifests(await readManifests([CORPUS])).prometheuses.find((p) => p.prometheus.name === 'k8s')?.output;
    if (!output?.ok) throw new Error('kube-prometheus did not render');
    dir = mkdtempSync(join(tmpdir(), 'promop-compare-'));
    const rulesDir = join(dir, 'rules');
    const serviceAccountDir = join(dir, 'serviceaccount');
    mkdirSync(serviceAccountDir);
    // The TLS configs name the pod's ServiceAccount CA; Prometheus reads it when it builds the scrape clients.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=promop-test-ca',
      '-days', '1', '-keyout', join(dir, 'ca.key'), '-out', join(serviceAccountDir, 'ca.crt')], { stdio: 'ignore' });
    writeFileSync(join(serviceAccountDir, 'token'), 'not-a-real-token');
    config = output.configs[0]!
      .split(`${RULES_DIR}/`).join(`${rulesDir}/`)
      .split(`${IN_POD_SERVICE_ACCOUNT_DIR}/`).join(`${serviceAccountDir}/`);
    writeFileSync(join(dir, 'prometheus.yaml'), config);
    for (const configMap of output.ruleConfigMaps) {
      for (const [file, text] of Object.entries(configMap.files)) {
        const path = join(rulesDir, configMap.name, file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
        ruleFiles[path] = text;
      }
    }
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-k8s-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the loaded config equal to the rendered one', async () => {
    const { yaml } = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(compareLoadedConfig(config, yaml)).toEqual({ equal: true });
  });

  it('finds the loaded rule groups equal to the rendered rule files', async () => {
    const { groups } = await prometheus.apiGet<{ groups: LoadedRuleGroup[] }>('/api/v1/rules');
    expect(Object.keys(ruleFiles).length).toBeGreaterThan(0);
    expect(compareLoadedRules(ruleFiles, groups)).toEqual({ equal: true });
  });

  it('still sees a one-character edit of a relabeling, which keeps every job name', async () => {
    const { yaml } = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    const edited = config.replace(/replacement: \$1\n/, 'replacement: $2\n');
    expect(edited).not.toBe(config);
    expect(compareLoadedConfig(edited, yaml)).toMatchObject({ equal: false, path: expect.stringMatching(/^scrape_configs\[\d+\]\.relabel_configs\[\d+\]\.replacement$/) });
  });

  it('still sees a threshold edit in one of the 234 rules', async () => {
    const { groups } = await prometheus.apiGet<{ groups: LoadedRuleGroup[] }>('/api/v1/rules');
    const [path, text] = Object.entries(ruleFiles).find(([, content]) => content.includes('> 0.01\n'))!;
    const edited = { ...ruleFiles, [path]: text.replace('> 0.01\n', '> 0.02\n') };
    expect(compareLoadedRules(edited, groups)).toMatchObject({ equal: false, reason: expect.stringMatching(/the expression differs$/) });
  });
});
