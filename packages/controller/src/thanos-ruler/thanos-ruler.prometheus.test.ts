/**
 * The ThanosRuler promop renders, run for real: `thanos rule` (v0.42.2, the version promop renders by default;
 * tools/thanos) started with the args of the `thanos-ruler` container promop builds, reading the rule files the
 * generator wrote laid out as the rule ConfigMaps are mounted, and evaluating them against a real `thanos query`.
 * Thanos refuses a flag it does not know and a rule file it cannot read, so every rendered flag and file is
 * exercised. Then promop's reload path (PrometheusReloader with a thanos-ruler request: POST /-/reload, then GET
 * /api/v1/rules compared with the written files) proves a changed rule set loaded and a broken one refused. Only
 * the pod's paths and addresses are replaced (the data directory, the rule glob, the query endpoint, the web config
 * file, the listen addresses on free loopback ports) and `$(POD_NAME)` as the kubelet expands it. Everything
 * listens and dials on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateThanosRulerRules } from '@promop/config-generator';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { eventually, freePort, startProcess, startUntilReady, toolPath } from '@promop/testkit';
import { PrometheusReloader } from '../prometheus-client/index.ts';
import { THANOS_RULES_DIR, thanosRulerCommand } from './thanos-ruler-children.ts';

const POD_NAME = 'thanos-ruler-r-0';
/** An external label value with every character Go's strconv.Unquote and the kubelet's expansion treat specially, and non-ASCII ones. */
const EXACT_LABEL_VALUE = 'a "quoted" \\ back\\tslash\nnew line, ünïcode ✓, $(POD_NAME) $$ cost$';

const thanosRuler = (queryEndpoint: string): ThanosRuler => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler',
  metadata: { namespace: 'monitoring', name: 'r', uid: 'u-1' },
  spec: {
    queryEndpoints: [queryEndpoint], alertmanagersUrl: ['http://127.0.0.1:1'], evaluationInterval: '1s', retention: '2h',
    labels: { cluster: 'test', note: EXACT_LABEL_VALUE }, alertDropLabels: ['cluster', 'note'], ruleSelector: {}, ruleNamespaceSelector: {}, enforcedNamespaceLabel: 'namespace',
    logLevel: 'debug', logFormat: 'json',
  },
} as ThanosRuler);

const prometheusRule = (name: string, groups: unknown[]): PrometheusRule =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'team-a', name, uid: `uid-${name}` }, spec: { groups } } as PrometheusRule);

const ALWAYS_FIRING = prometheusRule('always', [{
  name: 'always', partial_response_strategy: 'warn',
  rules: [{ alert: 'AlwaysFiring', expr: 'vector(1) > 0', labels: { severity: 'none' } }, { record: 'team:one', expr: 'vector(1)' }],
}]);

/** The rule files as the pods see them: /etc/thanos/rules/<ConfigMap>/<file> placed under `root`. */
function writeRuleFiles(root: string, ruler: ThanosRuler, rules: PrometheusRule[]): Record<string, string> {
  const rendered = generateThanosRulerRules({ thanosRuler: ruler, prometheusRules: rules, namespaces: [{ name: 'team-a', labels: {} }] });
  expect(rendered.verdicts.every((verdict) => verdict.selected && verdict.accepted)).toBe(true);
  rmSync(root, { recursive: true, force: true });
  const files: Record<string, string> = {};
  for (const configMap of rendered.ruleConfigMaps) {
    mkdirSync(join(root, configMap.name), { recursive: true });
    for (const [file, text] of Object.entries(configMap.files)) {
      writeFileSync(join(root, configMap.name, file), text);
      files[join(root, configMap.name, file)] = text;
    }
  }
  return files;
}

/** promop's args with the pod's paths and addresses replaced by this process' own. */
function onLoopback(args: string[], where: { dataDir: string; rulesRoot: string; webConfig: string; httpPort: number; grpcPort: number }): string[] {
  return [
    ...args.map((arg) => arg
      .replace(/^--data-dir=.*/, `--data-dir=${where.dataDir}`)
      .replace(/^--rule-file=.*/, `--rule-file=${where.rulesRoot}/*/*.yaml`)
      .replace(/^--http\.config=.*/, `--http.config=${where.webConfig}`)
      // The kubelet's expansion of container args: `$$` is one `$`, `$(VAR)` the variable's value (POD_NAME here).
      .replace(/\$(\$|\(([^)]*)\))/g, (whole, token: string, variable?: string) => (token === '$' ? '$' : variable === 'POD_NAME' ? POD_NAME : whole))),
    `--http-address=127.0.0.1:${where.httpPort}`, `--grpc-address=127.0.0.1:${where.grpcPort}`,
  ];
}

interface RulesAnswer {
  data: { groups: { name: string; file: string; partialResponseStrategy?: string; rules: { name: string; alerts?: { labels: Record<string, string>; state: string }[] }[] }[] };
}

describe('thanos rule started with the args and rule files promop renders for a ThanosRuler', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-thanos-ruler-'));
  const rulesRoot = join(dir, 'rules');
  const stops: (() => Promise<void>)[] = [];
  let rulerHttp = 0;
  let ruler: ThanosRuler;
  const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.0/8'], timeoutMs: 20_000, initialDelayMs: 100, maxDelayMs: 500 });

  beforeAll(async () => {
    // A thanos query with no store answers the query API: enough for `vector(1)`.
    const queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), ['query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);

    ruler = thanosRuler(`127.0.0.1:${queryHttp}`);
    writeRuleFiles(rulesRoot, ruler, [ALWAYS_FIRING]);
    const webConfig = join(dir, 'web-config.yaml');
    writeFileSync(webConfig, '');
    const command = thanosRulerCommand(ruler);
    if (!command.ok) throw new Error(JSON.stringify(command.problems));
    rulerHttp = await freePort();
    const args = onLoopback(command.value.args, { dataDir: join(dir, 'data'), rulesRoot, webConfig, httpPort: rulerHttp, grpcPort: await freePort() });
    const process = startProcess('thanos-rule', toolPath('thanos'), args, join(dir, 'rule.log'));
    stops.push((await startUntilReady(process, `http://127.0.0.1:${rulerHttp}/-/ready`, join(dir, 'rule'))).stop);
  }, 90_000);

  afterAll(async () => {
    await reloader.close();
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders thanos rule\'s flags as upstream orders them', () => {
    const command = thanosRulerCommand(thanosRuler('127.0.0.1:10902'));
    expect(command.ok && command.value.args).toEqual([
      'rule', '--data-dir=/thanos/data', '--eval-interval=1s', '--tsdb.retention=2h',
      '--label=thanos_ruler_replica="$(POD_NAME)"', '--label=cluster="test"', '--label=note="a \\"quoted\\" \\\\ back\\\\tslash\\nnew line, ünïcode ✓, $$(POD_NAME) $$$$ cost$$"',
      '--alert.label-drop=thanos_ruler_replica', '--alert.label-drop=cluster', '--alert.label-drop=note',
      '--log.level=debug', '--log.format=json', `--rule-file=${THANOS_RULES_DIR}/*/*.yaml`, '--query=127.0.0.1:10902', '--alertmanagers.url=http://127.0.0.1:1',
      '--http.config=/etc/thanos/web_config/web-config.yaml',
    ]);
  });

  it('loads the rule files with their partial response strategy and the enforced namespace label, and fires the alert', async () => {
    const rulesUrl = `http://127.0.0.1:${rulerHttp}/api/v1/rules`;
    const firing = (answer: RulesAnswer) => answer.data.groups[0]?.rules.find((rule) => rule.name === 'AlwaysFiring')?.alerts?.find((alert) => alert.state === 'firing');
    const rules = await eventually(async () => (await (await fetch(rulesUrl)).json()) as RulesAnswer, (answer) => firing(answer) !== undefined, 30_000, 500);
    expect(rules.data.groups.map((group) => [group.name, group.partialResponseStrategy])).toEqual([['always', 'WARN']]);
    // The enforced namespace label comes from the rule file; the external labels are added (and the replica and
    // alertDropLabels dropped again) when alerts are sent.
    expect(firing(rules)!.labels).toEqual({ alertname: 'AlwaysFiring', namespace: 'team-a', severity: 'none' });
    // The rules API lists the external labels on each rule: each value exactly as spec.labels has it.
    const ruleLabels = (rules.data.groups[0]?.rules.find((rule) => rule.name === 'AlwaysFiring') as { labels?: Record<string, string> } | undefined)?.labels;
    expect(ruleLabels).toMatchObject({ cluster: 'test', note: EXACT_LABEL_VALUE, thanos_ruler_replica: POD_NAME });
  });

  it('is reloaded by promop and proven to evaluate a changed rule set, and a broken file is reported as refused', async () => {
    const externalLabels = ['thanos_ruler_replica', 'cluster', 'note'];
    const request = (files: Record<string, string>) => reloader.reloadAndVerify({ program: 'thanos-ruler', baseUrl: `http://127.0.0.1:${rulerHttp}`, expectedRuleFiles: files, externalLabels });
    // Unchanged: what runs is what was written.
    expect(await request(writeRuleFiles(rulesRoot, ruler, [ALWAYS_FIRING]))).toMatchObject({ outcome: 'verified' });
    // A second PrometheusRule and a changed threshold: verified only once thanos rule lists exactly these groups. A
    // rule labelled with an external label's name (cluster) is listed with the external value, and still verified.
    const changed = writeRuleFiles(rulesRoot, ruler, [
      prometheusRule('always', [{ name: 'always', rules: [{ alert: 'AlwaysFiring', expr: 'vector(2) > 1', labels: { cluster: 'team-a', severity: 'page' } }] }]),
      prometheusRule('more', [{ name: 'more', partial_response_strategy: 'abort', rules: [{ record: 'team:two', expr: 'vector(2)' }] }]),
    ]);
    expect(await request(changed)).toMatchObject({ outcome: 'verified' });
    // Expecting files thanos rule has not got (the kubelet has not copied them yet) is pending until the deadline.
    const stale = await reloader.reloadAndVerify({ program: 'thanos-ruler', baseUrl: `http://127.0.0.1:${rulerHttp}`, expectedRuleFiles: { ...changed, [join(rulesRoot, 'x', 'y.yaml')]: 'groups:\n- name: missing\n  rules:\n  - record: x\n    expr: vector(1)\n' }, externalLabels, timeoutMs: 1_500 });
    expect(stale).toMatchObject({ outcome: 'stale' });
    // A file thanos rule cannot read: refused with its reason, and the groups it had keep running.
    writeFileSync(join(rulesRoot, Object.keys(changed).map((path) => path.split('/').at(-2)!)[0]!, 'broken.yaml'), 'groups: [{name: x, rules: [{record: r, expr: "sum("}]}]\n');
    const refused = await request(changed);
    expect(refused).toMatchObject({ outcome: 'rejected', reason: expect.stringContaining('error loading rules, previous rule set restored') });
    const rules = (await (await fetch(`http://127.0.0.1:${rulerHttp}/api/v1/rules`)).json()) as RulesAnswer;
    expect(rules.data.groups.map((group) => group.name).sort()).toEqual(['always', 'more']);
  }, 60_000);
});
