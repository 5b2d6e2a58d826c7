/**
 * Differential comparison of promop's Alertmanager configuration (generateAlertmanagerConfiguration) with
 * prometheus-operator v0.93.1's own, on the hand-written cases of alertmanager-cases.ts.
 *
 *   node bench/compat-diff/alertmanager-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (etcd + kube-apiserver, no kubelet), prometheus-operator's CRDs, every case in
 * namespaces of its own: an Alertmanager `am`, its base configuration Secret `alertmanager-am`, Secret
 * `receiver-secrets` in each of its namespaces, and its AlertmanagerConfigs. prometheus-operator then runs (its
 * Alertmanager controller writes Secret `alertmanager-am-generated`, key `alertmanager.yaml.gz`; the StatefulSets it
 * creates never get pods). promop's pure generator renders each case from the same objects as the API server
 * returns them (CRD defaults applied). Both YAMLs are parsed and compared structurally (mappings by key, lists by
 * position); promop storing the file plain where upstream gzips it is not a difference of content. Key order is
 * reported apart. Exit status 1 when a case without a documented reason differs.
 *
 * The TLS cases (TLS_CASES) compare besides the web config file (Secret `alertmanager-am-web-config`), the cluster
 * TLS file (`alertmanager-am-cluster-tls-config`) and what the StatefulSet's Alertmanager container gets of them
 * (flags, volumes, mounts) with promop's alertmanagerTlsOf and buildAlertmanagerStatefulSet.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { load } from 'js-yaml';
import { generateAlertmanagerConfiguration, type KeyValueSource } from '@promop/config-generator';
import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import { alertmanagerTlsOf, buildAlertmanagerStatefulSet } from '@promop/controller/alertmanager';
import type { V1Container, V1StatefulSet, V1Volume } from '@kubernetes/client-node';
import { createPki, startTestEnv, stopProcess, type ManagedProcess } from '@promop/testkit';
import { readFileSync } from 'node:fs';
import { BenchApi, inParallel, sleep } from '../side-by-side/api-client.ts';
import { prometheusOperator } from '../side-by-side/operators.ts';
import { installCrds } from './install-crds.ts';
import {
  ALERTMANAGER_CASES, ALERTMANAGER_NAME, CASE_NAMESPACES, RECEIVER_SECRET_DATA, RECEIVER_SECRET_NAME, baseAlertmanagerSpec, type AlertmanagerCase,
} from './alertmanager-cases.ts';

const GROUP = 'monitoring.coreos.com';
const CASE_LABEL = 'am-case';
const GENERATED_SECRET = `alertmanager-${ALERTMANAGER_NAME}-generated`;

interface Difference {
  path: string;
  prometheusOperator: unknown;
  promop: unknown;
}

interface CaseResult {
  case: string;
  about: string;
  outcome: 'equal' | 'different' | 'failed';
  /** Same content, same key order as well. */
  sameKeyOrder?: boolean;
  differences: Difference[];
  documented?: string;
  /** Objects the API server refused (left out on both sides). */
  refusedByApiServer: string[];
  /** `<namespace>/<name>: <reason>` of every object promop rejected. */
  promopRejected: string[];
  /** Objects prometheus-operator reported as rejected (Warning Events `InvalidConfiguration`). */
  upstreamRejected: string[];
  failure?: string;
  /** Neither wrote a configuration: promop's reason (prometheus-operator's is in its log). */
  bothRefused?: string;
}

interface CreatedCase {
  spec: AlertmanagerCase;
  namespace: string;
  namespaces: string[];
  refusedByApiServer: string[];
}

const secretKey = (key: string) => ({ name: RECEIVER_SECRET_NAME, key });

/** Cases whose configuration comes from an AlertmanagerConfig named by `spec.alertmanagerConfiguration`. */
const CONFIGURATION_OBJECT_CASES: AlertmanagerCase[] = [
  {
    name: 'configuration-object',
    about: 'alertmanagerConfiguration: the named object is the root (no namespace matcher), global SMTP and Slack from Secrets, another object of the namespace merged as a team\'s',
    alertmanagerSpec: {
      alertmanagerConfiguration: {
        name: 'platform',
        global: {
          resolveTimeout: '90s',
          smtp: { smartHost: { host: 'mail.example.com', port: '587' }, from: 'alerts@example.com', authUsername: 'alice', authPassword: secretKey('password'), requireTLS: false },
          slackApiUrl: secretKey('slack'),
        },
      },
    },
    configs: [
      {
        name: 'platform',
        spec: {
          route: { receiver: 'default', groupBy: ['alertname'], routes: [{ receiver: 'mail', matchers: [{ name: 'severity', value: 'critical' }] }] },
          receivers: [{ name: 'default', slackConfigs: [{ channel: '#alerts' }] }, { name: 'mail', emailConfigs: [{ to: 'oncall@example.com' }] }],
          inhibitRules: [{ sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'warning' }], equal: ['alertname'] }],
          muteTimeIntervals: [{ name: 'weekends', timeIntervals: [{ weekdays: ['saturday', 'sunday'] }] }],
        },
      },
      { name: 'team', spec: { route: { receiver: 'hook' }, receivers: [{ name: 'hook', webhookConfigs: [{ url: 'http://team.example/hook' }] }] } },
    ],
  },
  {
    name: 'configuration-http',
    about: 'alertmanagerConfiguration without alertmanagerConfigSelector: global HTTP client with basic auth, PagerDuty, WeChat and Telegram defaults',
    alertmanagerSpec: {
      alertmanagerConfigSelector: undefined,
      alertmanagerConfiguration: {
        name: 'platform',
        global: {
          httpConfig: { basicAuth: { username: secretKey('username'), password: secretKey('password') }, followRedirects: true },
          pagerdutyUrl: 'https://events.pagerduty.example/v2/enqueue',
          wechat: { apiURL: 'https://wechat.example/', apiCorpID: 'corp', apiSecret: secretKey('token') },
          telegram: { apiURL: 'https://telegram.example' },
        },
      },
    },
    configs: [{ name: 'platform', spec: { route: { receiver: 'hook', groupWait: '1m' }, receivers: [{ name: 'hook', webhookConfigs: [{ url: 'http://platform.example/hook' }] }] } }],
  },
];

/** Secret and ConfigMap of every TLS case's namespace: a real certificate, key and CA (upstream reads them too). */
const TLS_SECRET = 'am-tls';
const TLS_CONFIGMAP = 'am-ca';

/** Cases whose web config and cluster TLS files are compared besides the configuration. */
const TLS_CASES: AlertmanagerCase[] = [
  {
    name: 'web-tls',
    about: 'web.tlsConfig (cert and key from a Secret, client CA from a ConfigMap, client certificates required, TLS 1.2+, cipher suites) and web.httpConfig (http2 off, headers)',
    alertmanagerSpec: {
      web: {
        tlsConfig: {
          cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' },
          client_ca: { configMap: { name: TLS_CONFIGMAP, key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
          minVersion: 'TLS12', cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'], curvePreferences: ['X25519'],
        },
        httpConfig: { http2: false, headers: { xFrameOptions: 'Deny', xContentTypeOptions: 'NoSniff', strictTransportSecurity: 'max-age=31536000' } },
      },
    },
    configs: [],
  },
  {
    name: 'cluster-tls',
    about: 'three meshed replicas with clusterTLS (server from a Secret with a ConfigMap client CA, client certificate from a ConfigMap, CA, serverName) and HTTPS without client certificates',
    alertmanagerSpec: {
      replicas: 3,
      // Not certFile/keyFile: prometheus-operator 0.93 then mounts a key volume without a Secret name, which the API server refuses.
      web: { tlsConfig: { cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' } } },
      clusterTLS: {
        server: {
          cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' },
          client_ca: { configMap: { name: TLS_CONFIGMAP, key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
        },
        client: {
          cert: { configMap: { name: TLS_CONFIGMAP, key: 'client.crt' } }, keySecret: { name: TLS_SECRET, key: 'client.key' },
          ca: { configMap: { name: TLS_CONFIGMAP, key: 'ca.crt' } }, serverName: 'alertmanager-am', insecureSkipVerify: false,
        },
      },
    },
    configs: [],
  },
];
const TLS_CASE_NAMES = new Set(TLS_CASES.map((each) => each.name));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string' } } });
  const only = values.only?.split(',');
  const cases = [...ALERTMANAGER_CASES, ...CONFIGURATION_OBJECT_CASES, ...TLS_CASES].filter((c) => !only || only.includes(c.name));
  const operator = prometheusOperator();
  console.log(`building/finding ${operator.prepare()}`);

  const env = await startTestEnv({ controllerManager: false });
  const api = new BenchApi({ server: env.apiServerUrl, caFile: env.pki.caCert, certFile: env.pki.adminCert, keyFile: env.pki.adminKey });
  let running: ManagedProcess | undefined;
  const results: CaseResult[] = [];
  try {
    installCrds(env, operator.crdDirectory());
    const pki = createPki(mkdtempSync(join(tmpdir(), 'am-compat-diff-pki-')));
    tlsMaterial = {
      secret: { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8'), 'client.key': readFileSync(pki.adminKey, 'utf8') },
      configMap: { 'ca.crt': readFileSync(pki.caCert, 'utf8'), 'client.crt': readFileSync(pki.adminCert, 'utf8') },
    };
    const created = cases.map((spec, index): CreatedCase => {
      const namespace = `am${index}-${spec.name}`;
      return { spec, namespace, namespaces: [namespace, ...(spec.extraNamespaces ?? []).map((suffix) => `${namespace}-${suffix}`)], refusedByApiServer: [] };
    });
    await inParallel(created, 8, (item) => createCase(api, item));
    const logDir = mkdtempSync(join(tmpdir(), 'am-compat-diff-'));
    running = operator.start(env.kubeconfigPath, 0, join(logDir, 'prometheus-operator.log'));
    console.log(`prometheus-operator started (log and both sides' files: ${logDir})`);
    const upstream = await waitForGenerated(api, created);
    for (const item of created) results.push(await compareCase(api, item, upstream.get(item.namespace), logDir));
  } finally {
    if (running) await stopProcess(running);
    api.close();
    await env.stop();
  }
  printResults(results);
  if (values.out) writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
  process.exitCode = results.some((r) => r.outcome !== 'equal' && !r.documented) ? 1 : 0;
}

/** The TLS Secret's and ConfigMap's data of the TLS cases. */
let tlsMaterial: { secret: Record<string, string>; configMap: Record<string, string> } | undefined;

/** The case's objects as a user would apply them: namespaces, Secrets, AlertmanagerConfigs, the Alertmanager. */
async function createCase(api: BenchApi, item: CreatedCase): Promise<void> {
  const { spec, namespace } = item;
  if (TLS_CASE_NAMES.has(spec.name) && tlsMaterial) {
    await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [CASE_LABEL]: namespace } } });
    await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: TLS_SECRET }, stringData: tlsMaterial.secret });
    await api.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: TLS_CONFIGMAP }, data: tlsMaterial.configMap });
  }
  for (const name of item.namespaces) {
    if (!(TLS_CASE_NAMES.has(spec.name) && name === namespace)) {
      await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [CASE_LABEL]: namespace } } });
    }
    await api.json('POST', `/api/v1/namespaces/${name}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: RECEIVER_SECRET_NAME }, stringData: RECEIVER_SECRET_DATA });
  }
  if (spec.baseConfig !== undefined) {
    await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: `alertmanager-${ALERTMANAGER_NAME}` }, stringData: { 'alertmanager.yaml': spec.baseConfig } });
  }
  for (const config of spec.configs) {
    const where = config.namespace ? `${namespace}-${config.namespace}` : namespace;
    const body = JSON.parse(JSON.stringify({
      apiVersion: `${GROUP}/v1alpha1`, kind: 'AlertmanagerConfig', metadata: { name: config.name, labels: config.labels ?? {} }, spec: config.spec,
    }).replaceAll('@NS@', where)) as Record<string, unknown>;
    const response = await api.send('POST', `/apis/${GROUP}/v1alpha1/namespaces/${where}/alertmanagerconfigs?fieldValidation=Strict`, body);
    if (response.status !== 201) item.refusedByApiServer.push(`${where}/${config.name}: ${apiMessage(response.body)}`);
  }
  const amSpec: Record<string, unknown> = { ...baseAlertmanagerSpec(), ...spec.alertmanagerSpec };
  if (amSpec.alertmanagerConfigNamespaceSelector === CASE_NAMESPACES) amSpec.alertmanagerConfigNamespaceSelector = { matchLabels: { [CASE_LABEL]: namespace } };
  const response = await api.send('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/alertmanagers?fieldValidation=Strict`, { apiVersion: `${GROUP}/v1`, kind: 'Alertmanager', metadata: { name: ALERTMANAGER_NAME }, spec: amSpec });
  if (response.status !== 201) item.refusedByApiServer.push(`Alertmanager ${namespace}/${ALERTMANAGER_NAME}: ${apiMessage(response.body)}`);
}

function apiMessage(body: string): string {
  try {
    return String((JSON.parse(body) as { message?: string }).message ?? body);
  } catch {
    return body.slice(0, 300);
  }
}

/** Each case's generated configuration, once every case has one and none changed over three polls in a row. */
async function waitForGenerated(api: BenchApi, created: readonly CreatedCase[]): Promise<Map<string, string>> {
  const configs = new Map<string, string>();
  const deadline = Date.now() + 300_000;
  let stablePolls = 0;
  for (;;) {
    let changed = false;
    await inParallel(created, 8, async (item) => {
      const response = await api.send('GET', `/api/v1/namespaces/${item.namespace}/secrets/${GENERATED_SECRET}`);
      if (response.status !== 200) return;
      const data = (JSON.parse(response.body) as { data?: Record<string, string> }).data?.['alertmanager.yaml.gz'];
      if (data === undefined) return;
      const text = data === '' ? '' : gunzipSync(Buffer.from(data, 'base64')).toString('utf8');
      if (configs.get(item.namespace) !== text) {
        configs.set(item.namespace, text);
        changed = true;
      }
    });
    stablePolls = changed ? 0 : stablePolls + 1;
    if (configs.size === created.length && stablePolls >= 3) return configs;
    // A case prometheus-operator cannot provision (its log says why) writes nothing: stop waiting a minute after
    // the last change.
    if (Date.now() > deadline || (configs.size > 0 && stablePolls >= 30)) {
      console.log(`prometheus-operator wrote ${configs.size} of ${created.length} configurations`);
      return configs;
    }
    await sleep(2_000);
  }
}

async function compareCase(api: BenchApi, item: CreatedCase, upstreamText: string | undefined, outputDir: string): Promise<CaseResult> {
  const { spec, namespace } = item;
  const result: CaseResult = { case: spec.name, about: spec.about, outcome: 'failed', differences: [], documented: spec.documented, refusedByApiServer: item.refusedByApiServer, promopRejected: [], upstreamRejected: [] };
  result.upstreamRejected = await upstreamRejections(api, item.namespaces);
  // promop reads what the API server stores (prometheus-operator's CRD defaults applied).
  const alertmanager = await api.json<Alertmanager>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/alertmanagers/${ALERTMANAGER_NAME}`);
  const configs: AlertmanagerConfig[] = [];
  const secrets: KeyValueSource[] = [];
  let baseConfig: string | undefined;
  for (const name of item.namespaces) {
    configs.push(...(await api.json<{ items: AlertmanagerConfig[] }>('GET', `/apis/${GROUP}/v1alpha1/namespaces/${name}/alertmanagerconfigs`)).items);
    for (const secret of (await api.json<{ items: { metadata: { name: string }; data?: Record<string, string> }[] }>('GET', `/api/v1/namespaces/${name}/secrets`)).items) {
      const data = Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
      if (name === namespace && secret.metadata.name === `alertmanager-${ALERTMANAGER_NAME}`) baseConfig = data['alertmanager.yaml'];
      secrets.push({ namespace: name, name: secret.metadata.name, data });
    }
  }
  const namespaces = item.namespaces.map((name) => ({ name, labels: { [CASE_LABEL]: namespace, 'kubernetes.io/metadata.name': name } }));
  const ours = generateAlertmanagerConfiguration({ alertmanager, baseConfig, alertmanagerConfigs: configs, namespaces, secrets });
  for (const verdict of ours.verdicts) {
    if (verdict.selected && !verdict.accepted) result.promopRejected.push(`${verdict.resource.namespace}/${verdict.resource.name}: ${verdict.reason}`);
  }
  if (upstreamText === undefined) {
    if (!ours.ok) {
      // Both refuse the case as a whole (an invalid base): neither writes a configuration.
      result.outcome = 'equal';
      result.bothRefused = `${ours.problem.path}: ${ours.problem.message}`;
      return result;
    }
    result.failure = `prometheus-operator wrote no ${GENERATED_SECRET} (see its log); promop wrote one`;
    return result;
  }
  if (!ours.ok) {
    result.failure = `promop refused the configuration: ${ours.problem.path}: ${ours.problem.message}`;
    return result;
  }
  // Both files kept for a look at the text (key order, quoting).
  writeFileSync(join(outputDir, `${spec.name}.prometheus-operator.yaml`), upstreamText);
  writeFileSync(join(outputDir, `${spec.name}.promop.yaml`), ours.text);
  const theirs = load(upstreamText);
  const mine = load(ours.text);
  result.differences = diff(theirs, mine, '');
  if (TLS_CASE_NAMES.has(spec.name)) result.differences.push(...await tlsFileDifferences(api, alertmanager, namespace, outputDir, spec.name));
  result.outcome = result.differences.length === 0 ? 'equal' : 'different';
  if (result.outcome === 'equal') result.sameKeyOrder = JSON.stringify(theirs) === JSON.stringify(mine);
  return result;
}

/**
 * The differences of the web config and cluster TLS files (parsed), and of what the Alertmanager container gets of
 * them: the two flags, and the volumes and mounts below upstream's two directories.
 */
async function tlsFileDifferences(api: BenchApi, alertmanager: Alertmanager, namespace: string, outputDir: string, caseName: string): Promise<Difference[]> {
  const tls = alertmanagerTlsOf(alertmanager.spec ?? {});
  if (!tls.ok) return [{ path: '(TLS files)', prometheusOperator: 'written', promop: tls.problems }];
  const secretText = async (name: string, key: string) => {
    const response = await api.send('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`);
    if (response.status !== 200) return undefined;
    const data = (JSON.parse(response.body) as { data?: Record<string, string> }).data?.[key];
    return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
  };
  const files = [
    { file: 'web-config.yaml', theirs: await secretText(`alertmanager-${ALERTMANAGER_NAME}-web-config`, 'web-config.yaml'), mine: tls.value.web?.text },
    { file: 'cluster-tls-config.yaml', theirs: await secretText(`alertmanager-${ALERTMANAGER_NAME}-cluster-tls-config`, 'cluster-tls-config.yaml'), mine: tls.value.cluster?.text },
  ];
  const differences: Difference[] = [];
  for (const { file, theirs, mine } of files) {
    writeFileSync(join(outputDir, `${caseName}.prometheus-operator.${file}`), theirs ?? '');
    writeFileSync(join(outputDir, `${caseName}.promop.${file}`), mine ?? '');
    // Upstream writes an empty file for a field that is unset, and passes no flag naming it: the same as none.
    const parsed = (text: string | undefined) => (text ? load(text) : undefined);
    differences.push(...diff(parsed(theirs), parsed(mine), file));
  }
  const response = await api.send('GET', `/apis/apps/v1/namespaces/${namespace}/statefulsets/alertmanager-${ALERTMANAGER_NAME}`);
  const upstream = response.status === 200 ? tlsPodParts(JSON.parse(response.body) as V1StatefulSet) : `no StatefulSet (${response.status}; see its log)`;
  differences.push(...diff(upstream, tlsPodParts(buildAlertmanagerStatefulSet(alertmanager, 'compat-diff')), 'statefulset'));
  return differences;
}

/** The Alertmanager container's TLS flags, and the volumes and mounts below the two TLS directories (by name). */
function tlsPodParts(statefulSet: V1StatefulSet): Record<string, unknown> {
  const pod = statefulSet.spec?.template.spec;
  const container = pod?.containers.find((each: V1Container) => each.name === 'alertmanager');
  const args = (container?.args ?? []).filter((arg) => arg.startsWith('--web.config.file') || arg.startsWith('--cluster.tls-config'));
  // Upstream mounts the (empty) file of an unset field too, which no flag names (docs/compatibility.md): left out.
  const used = ['web_config', 'cluster_tls_config'].filter((dir) => args.some((arg) => arg.includes(`/etc/alertmanager/${dir}/`)));
  const mounts = (container?.volumeMounts ?? []).filter((mount) => used.some((dir) => mount.mountPath.startsWith(`/etc/alertmanager/${dir}/`)));
  const names = new Set(mounts.map((mount) => mount.name));
  // Upstream suffixes each TLS volume name with a hash of the object's name; promop only a name too long (docs/compatibility.md).
  const name = (volume: string) => volume.replace(/^((?:web-config-tls|cluster-tls-(?:server|client)-config)-.*)-[0-9a-f]{8}$/, '$1');
  const source = (volume: V1Volume) => (volume.secret ? { secret: volume.secret.secretName } : volume.configMap ? { configMap: volume.configMap.name } : {});
  return {
    args,
    readinessScheme: container?.readinessProbe?.httpGet?.scheme ?? 'HTTP',
    mounts: Object.fromEntries(mounts.map((mount) => [name(mount.name), { mountPath: mount.mountPath, subPath: mount.subPath ?? '' }])),
    volumes: Object.fromEntries((pod?.volumes ?? []).filter((volume) => names.has(volume.name)).map((volume) => [name(volume.name), source(volume)])),
  };
}

/** `<namespace>/<name>: <message>` of prometheus-operator's InvalidConfiguration Events on AlertmanagerConfigs. */
async function upstreamRejections(api: BenchApi, namespaces: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const namespace of namespaces) {
    const events = await api.json<{ items: { reason?: string; involvedObject?: { kind?: string; name?: string }; message?: string; note?: string }[] }>('GET', `/api/v1/namespaces/${namespace}/events`);
    for (const event of events.items) {
      if (event.reason === 'InvalidConfiguration' && event.involvedObject?.kind === 'AlertmanagerConfig') {
        found.add(`${namespace}/${event.involvedObject.name}: ${(event.message ?? event.note ?? '').slice(0, 200)}`);
      }
    }
  }
  return [...found].sort();
}

/** Structural differences: mappings by key, lists by position, scalars by value. */
function diff(theirs: unknown, mine: unknown, path: string): Difference[] {
  if (Array.isArray(theirs) && Array.isArray(mine)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(theirs.length, mine.length); i++) out.push(...diff(theirs[i], mine[i], `${path}[${i}]`));
    return out;
  }
  if (isMapping(theirs) && isMapping(mine)) {
    const out: Difference[] = [];
    const keys = [...new Set([...Object.keys(theirs), ...Object.keys(mine)])];
    for (const key of keys) out.push(...diff(theirs[key], mine[key], path === '' ? key : `${path}.${key}`));
    return out;
  }
  if (Object.is(theirs, mine)) return [];
  return [{ path: path || '(root)', prometheusOperator: theirs, promop: mine }];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function printResults(results: readonly CaseResult[]): void {
  console.log('');
  for (const r of results) {
    const label = r.bothRefused ? `equal: neither writes a configuration (promop: ${r.bothRefused})` : r.outcome === 'equal' ? `equal${r.sameKeyOrder ? '' : ' (key order differs)'}` : r.outcome === 'failed' ? `FAILED: ${r.failure}` : `${r.differences.length} difference(s)`;
    console.log(`${r.case}: ${label}${r.documented && r.outcome !== 'equal' ? ` [documented: ${r.documented}]` : ''}`);
    for (const line of r.refusedByApiServer) console.log(`  refused by the API server: ${line}`);
    for (const line of r.upstreamRejected) console.log(`  prometheus-operator rejected: ${line}`);
    for (const line of r.promopRejected) console.log(`  promop rejected: ${line}`);
    for (const d of r.differences) console.log(`  ${d.path}\n    prometheus-operator: ${JSON.stringify(d.prometheusOperator)}\n    promop:              ${JSON.stringify(d.promop)}`);
  }
  const count = (outcome: CaseResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const undocumented = results.filter((r) => r.outcome !== 'equal' && !r.documented).length;
  console.log(`\n${results.length} cases: ${count('equal')} equal, ${count('different')} differing, ${count('failed')} failed; ${undocumented} not explained by docs/compatibility.md`);
}

await main();
