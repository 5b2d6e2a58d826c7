/**
 * Hostile AlertmanagerConfigs: every string field of the receiver, route, inhibit rule and time interval schema (and
 * every map key) takes, in turn, each value of a corpus of hostile strings, in an otherwise valid object (one notifier
 * of every kind and a valid route). What the API server would admit (validateAlertmanagerConfig) is rendered with a
 * well-behaved team A, and then either
 * - accepted: Alertmanager's own loader (amtool check-config, 0.35) takes the shared file, team A's alerts still reach
 *   team A's receiver only (amtool config routes test), and the value reads back as exactly the value written; or
 * - rejected alone: a problem with a field path under spec., and team A's configuration unchanged.
 * Then 1 MB values: rendering stays well under a second or two (no catastrophic backtracking).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { alertmanagerConfigSchema, DURATION_PATTERN, PROXY_URL_PATTERN, URL_PATTERN, validateAlertmanagerConfig, type Alertmanager, type AlertmanagerConfig } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import type { KeyValueSource, Verdict } from '../model.ts';
import { schemaStrings, withValueAt, type SchemaNode, type ValueHint } from '../test-support/string-field-walk.ts';
import { generateAlertmanagerConfiguration } from './alertmanager-configuration.ts';

const dir = mkdtempSync(join(tmpdir(), 'promop-am-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const BASE = 'route:\n  receiver: platform\n  group_by: [alertname]\nreceivers:\n- name: platform\n';
const SPEC_SCHEMA = (alertmanagerConfigSchema.properties as unknown as { spec: SchemaNode }).spec;

const TEAM_A_SECRET = 'team-a-s3cr3t-never-elsewhere';
const sk = (key: string) => ({ name: 'creds', key });
const secretsOf = (namespace: string): KeyValueSource => ({
  namespace,
  name: 'creds',
  data: namespace === 'team-a' ? { token: TEAM_A_SECRET, url: `https://${TEAM_A_SECRET}.example/` } : { token: 'tok', url: 'https://hooks.example/x' },
});

function alertmanager(): Alertmanager {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { namespace: 'monitoring', name: 'main' }, spec: { alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {} } } as Alertmanager;
}

function amcfg(namespace: string, name: string, spec: unknown): AlertmanagerConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace, name }, spec } as AlertmanagerConfig;
}

const TEAM_A = amcfg('team-a', 'alerting', { route: { receiver: 'oncall' }, receivers: [{ name: 'oncall', webhookConfigs: [{ url: 'http://team-a.example/hook' }] }] });
const TEAM_A_RECEIVER = 'team-a/alerting/oncall';

/** The hostile object before a value goes in: valid, with one notifier of every kind. */
const VALID_SPEC = {
  route: { receiver: 'r', groupBy: ['alertname'], muteTimeIntervals: ['quiet'], matchers: [{ name: 'severity', value: 'page' }] },
  receivers: [{
    name: 'r',
    webhookConfigs: [{ url: 'http://hook.example/' }],
    emailConfigs: [{ to: 'a@example.com', from: 'b@example.com', smarthost: 'smtp.example:25', authPassword: sk('token') }],
    slackConfigs: [{ apiURL: sk('url'), channel: '#c' }],
    pagerdutyConfigs: [{ routingKey: sk('token') }],
    opsgenieConfigs: [{ apiKey: sk('token') }],
    wechatConfigs: [{ apiSecret: sk('token'), corpID: 'corp' }],
    victoropsConfigs: [{ apiKey: sk('token'), routingKey: 'rk' }],
    pushoverConfigs: [{ userKey: sk('token'), token: sk('token') }],
    snsConfigs: [{ topicARN: 'arn:aws:sns:us-east-1:123:t', sigv4: { region: 'us-east-1' } }],
    telegramConfigs: [{ botToken: sk('token'), chatID: 1 }],
    discordConfigs: [{ apiURL: sk('url') }],
    webexConfigs: [{ roomID: 'room', httpConfig: { authorization: { credentials: sk('token') } } }],
    msteamsConfigs: [{ webhookUrl: sk('url') }],
    msteamsv2Configs: [{ webhookURL: sk('url') }],
    rocketchatConfigs: [{ token: sk('token'), tokenID: sk('token') }],
  }],
  inhibitRules: [{ sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'warning' }], equal: ['alertname'] }],
  muteTimeIntervals: [{ name: 'quiet', timeIntervals: [{ weekdays: ['monday:friday'] }] }],
};

const HOSTILE: readonly string[] = [
  'a"b\'c\\"d',
  'x\ny: injected\n- name: evil',
  'x\u2028- name: evil\u2029route:\u0085z',
  '{{ .CommonLabels.namespace }}',
  '{{ unclosed',
  'a}, namespace=~".*", b={c',
  'k'.repeat(1100),
  '- a: b',
  '? x\n: y',
  '&anchor *alias !!binary',
  '# comment',
  '|\n  block',
  'null',
  'true',
  '0x1F',
  '<<',
  '---',
  ' spaced ',
  '',
  '\t\r\u0000\u007f\ufeff',
  '${HOME} $(id)',
  '🔥 ünïcödé \u202e',
  'a:',
  'http://a b/{{',
];

const hint: ValueHint = (path, node) => {
  if (node.pattern === URL_PATTERN) return 'http://min.example/';
  if (node.pattern === PROXY_URL_PATTERN) return 'http://proxy.example:3128/';
  if (node.pattern === DURATION_PATTERN) return '10s';
  if (node.properties && 'key' in node.properties && 'name' in node.properties && 'optional' in node.properties) return sk('token');
  if (/clientId$/.test(path)) return { secret: sk('token') };
  if (/proxyConnectHeader\{\}$/.test(path)) return [sk('token')];
  return undefined;
};

function setAt(spec: unknown, path: string, value: unknown): unknown {
  return withValueAt(spec, SPEC_SCHEMA, path, value, hint);
}

/** The spec with `value` at `path`, and the siblings some fields need to be rendered at all. */
function hostileSpec(path: string, value: string): Record<string, unknown> {
  let spec = structuredClone(VALID_SPEC) as unknown;
  const proxied = /^(.*)\.(noProxy|proxyConnectHeader)/.exec(path);
  if (proxied) spec = setAt(spec, `${proxied[1]}.proxyUrl`, 'http://proxy.example:3128/');
  spec = setAt(spec, path, value);
  // A name and what refers to it take the hostile value together, so the name gets as far as the file.
  if (path === 'receivers[].name') spec = setAt(spec, 'route.receiver', value);
  if (path === 'route.receiver') spec = setAt(spec, 'receivers[].name', value);
  if (path === 'muteTimeIntervals[].name') spec = setAt(spec, 'route.muteTimeIntervals[]', value);
  if (path === 'route.muteTimeIntervals[]' || path === 'route.activeTimeIntervals[]') spec = setAt(spec, 'muteTimeIntervals[].name', value);
  return spec as Record<string, unknown>;
}

/** The same hostile route one level down, under a plain top route. */
function nested(spec: Record<string, unknown>): Record<string, unknown> {
  const route = spec.route as Record<string, unknown>;
  const top = { receiver: route.receiver === 'r' || typeof route.receiver !== 'string' ? 'r' : route.receiver };
  return { ...spec, route: { ...top, routes: [route] } };
}

interface Case {
  label: string;
  path: string;
  value: string;
  object: AlertmanagerConfig;
  /** Labels an alert of the object's namespace carries to reach its receiver, when the value is a matcher value. */
  matcherLabel?: string;
}

// The HTTP client is the same block in every notifier kind: walked once, in the webhook's.
const STRING_PATHS = schemaStrings(SPEC_SCHEMA).strings.map((field) => field.path).filter((path) => !path.includes('.httpConfig.') || path.startsWith('receivers[].webhookConfigs[].'));
const cases: Case[] = [];
for (const path of STRING_PATHS) {
  HOSTILE.forEach((value, v) => {
    const spec = hostileSpec(path, value);
    const variants: [string, Record<string, unknown>][] = [['', spec]];
    if (path.startsWith('route.')) variants.push(['nested ', nested(spec)]);
    for (const [kind, variant] of variants) {
      const namespace = `h${cases.length}`;
      cases.push({
        label: `${kind}${path} = hostile[${v}]`,
        path,
        value,
        object: amcfg(namespace, 'hostile', variant),
        matcherLabel: path === 'route.matchers[].value' ? 'severity' : undefined,
      });
    }
  });
}

function generate(objects: AlertmanagerConfig[]) {
  const names = ['monitoring', 'team-a', ...objects.map((object) => object.metadata.namespace ?? '')];
  const namespaces = names.map((name) => ({ name, labels: { 'kubernetes.io/metadata.name': name } }));
  const result = generateAlertmanagerConfiguration({ alertmanager: alertmanager(), baseConfig: BASE, alertmanagerConfigs: [TEAM_A, ...objects], namespaces, secrets: names.map(secretsOf) });
  if (!result.ok) throw new Error(`unexpected problem ${JSON.stringify(result.problem)}`);
  return result;
}

function written(text: string): string {
  const file = join(dir, `alertmanager-${files++}.yaml`);
  writeFileSync(file, text);
  return file;
}

function amtoolCheck(file: string): { code: number | null; output: string } {
  const result = spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const quotedLabel = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

function receiversFor(file: string, labels: Record<string, string>): string[] {
  const matchers = Object.entries(labels).map(([name, value]) => `${name}=${quotedLabel(value)}`);
  const result = spawnSync(toolPath('amtool'), ['config', 'routes', 'test', `--config.file=${file}`, ...matchers], { encoding: 'utf8' });
  if (result.status !== 0 && result.stdout === '') throw new Error(`amtool failed: ${result.stderr}`);
  return result.stdout.trim().split(',').map((name) => name.trim()).filter((name) => name !== '');
}

const verdictOf = (verdicts: Verdict[], namespace: string) => verdicts.find((v) => v.resource.namespace === namespace);

/** Every string of a loaded document: values and keys. */
function stringsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      stringsIn(item, into);
    }
  }
  return into;
}

/** Fields whose value is written in another form than the team's (matchers, normalized time intervals). */
const REWRITTEN = /(^|\.)(matchers|sourceMatch|targetMatch)\[\]\.(name|value|matchType)$|^muteTimeIntervals\[\]\.timeIntervals|(^|\.)(weekdays|months|years)/;

describe('hostile AlertmanagerConfigs', () => {
  const teamAlone = generate([]).text;
  const counts = { objects: cases.length, refusedBySchema: 0, accepted: 0, rejected: 0 };
  const failures: string[] = [];
  const accepted: Case[] = [];

  it('are refused by the schema, or rejected alone with a field path and team A unchanged, or accepted', () => {
    for (const c of cases) {
      const admitted = validateAlertmanagerConfig(c.object);
      if (!admitted.ok) {
        counts.refusedBySchema++;
        continue;
      }
      c.object = admitted.value;
      const result = generate([c.object]);
      const verdict = verdictOf(result.verdicts, c.object.metadata.namespace ?? '');
      if (!verdict?.selected) {
        failures.push(`${c.label}: not selected`);
        continue;
      }
      if (verdict.accepted) {
        counts.accepted++;
        accepted.push(c);
        continue;
      }
      counts.rejected++;
      if (!verdict.problems.every((problem) => problem.path.startsWith('spec.'))) failures.push(`${c.label}: problem without a spec. path ${JSON.stringify(verdict.problems)}`);
      if (result.text !== teamAlone) failures.push(`${c.label}: rejected, yet team A's configuration changed`);
    }
    // eslint-disable-next-line no-console
    console.log(`hostile AlertmanagerConfigs: ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(counts.accepted).toBeGreaterThan(100);
    expect(counts.rejected).toBeGreaterThan(100);
  });

  it('when accepted, coexist in one file Alertmanager loads, leave team A\'s alerts to team A, and keep their values exactly', () => {
    const BATCH = 250;
    for (let from = 0; from < accepted.length; from += BATCH) {
      const batch = accepted.slice(from, from + BATCH);
      const result = generate(batch.map((c) => c.object));
      const notAccepted = result.verdicts.filter((v) => !v.selected || !v.accepted);
      if (notAccepted.length > 0) failures.push(`batch ${from}: ${JSON.stringify(notAccepted).slice(0, 2000)}`);
      const file = written(result.text);
      const checked = amtoolCheck(file);
      if (checked.code !== 0) {
        // Find the objects that break the file, each alone with team A.
        for (const c of batch) {
          const alone = amtoolCheck(written(generate([c.object]).text));
          if (alone.code !== 0) failures.push(`${c.label}: amtool check-config refuses the file: ${alone.output.split('\n').filter((line) => /FAILED|error/i.test(line)).join(' ').slice(0, 300)}`);
        }
        continue;
      }
      const forTeamA = receiversFor(file, { namespace: 'team-a', severity: 'page', alertname: 'Down' });
      if (JSON.stringify(forTeamA) !== JSON.stringify([TEAM_A_RECEIVER])) failures.push(`batch ${from}: team A's alert reaches ${JSON.stringify(forTeamA)}`);
      const strings = stringsIn(load(result.text));
      for (const c of batch) {
        if (c.value === '' || REWRITTEN.test(c.path) || /(^|\.)(name|key)$/.test(c.path) && /\.(\w+Secret|credentials|\w+Key|apiURL|webhookUrl|webhookURL|token|tokenID|urlSecret|password|username|secret|configMap|authPassword|authSecret)\.(name|key)$/.test(c.path)) continue;
        const namespace = c.object.metadata.namespace ?? '';
        const qualified = `${namespace}/hostile/${c.value}`;
        if (!strings.has(c.value) && !strings.has(qualified)) failures.push(`${c.label}: the value does not read back as itself`);
      }
      expect(result.text).not.toContain(TEAM_A_SECRET);
    }
    // A hostile matcher value matches exactly itself, in the object's namespace only.
    // (A NUL cannot be passed to amtool as an argument.)
    for (const c of accepted.filter((each) => each.matcherLabel !== undefined && !each.value.includes('\u0000'))) {
      const file = written(generate([c.object]).text);
      const namespace = c.object.metadata.namespace ?? '';
      const mine = receiversFor(file, { namespace, severity: c.value });
      if (!mine.includes(`${namespace}/hostile/r`)) failures.push(`${c.label}: its own alert reaches ${JSON.stringify(mine)}`);
      const teamA = receiversFor(file, { namespace: 'team-a', severity: c.value });
      if (JSON.stringify(teamA) !== JSON.stringify([TEAM_A_RECEIVER])) failures.push(`${c.label}: team A's alert reaches ${JSON.stringify(teamA)}`);
    }
    expect(failures).toEqual([]);
  });
});

/**
 * A guard against work that grows faster than the input (backtracking, quadratic scans), not a benchmark: a blow-up
 * on 1 MB takes minutes, linear work well under a second on a quiet machine; the bound leaves room for a loaded CI
 * machine (bench/regex-hostile.bench.ts measures the Prometheus side's regex checks).
 */
const NO_BLOW_UP_MS = 15_000;

describe('1 MB values', () => {
  const MB = 1 << 20;
  const big = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const timed = (spec: Record<string, unknown>) => {
    const object = amcfg('h-big', 'big', spec);
    const started = performance.now();
    const admitted = validateAlertmanagerConfig(object);
    const validated = performance.now();
    const result = generateAlertmanagerConfiguration({
      alertmanager: alertmanager(), baseConfig: BASE, alertmanagerConfigs: [TEAM_A, admitted.ok ? admitted.value : object],
      namespaces: [{ name: 'team-a', labels: {} }, { name: 'h-big', labels: {} }], secrets: [secretsOf('team-a'), secretsOf('h-big')],
    });
    const rendered = performance.now();
    return { validateMs: validated - started, renderMs: rendered - validated, result };
  };
  const cases1mb: [string, string, string][] = [
    ['a Slack title', 'receivers[].slackConfigs[].title', big('a"\n\u2028{{')],
    ['a webhook URL', 'receivers[].webhookConfigs[].url', `http://${big('a:1@')}`],
    ['an email smarthost', 'receivers[].emailConfigs[].smarthost', big('[a]:1')],
    ['a regex matcher value', 'route.matchers[].value', big('(a+)+')],
    ['a regex matcher value that does not compile', 'route.matchers[].value', `${big('(a|aa)*')}(`],
    ['a group_wait', 'route.groupWait', `${big('1')}x`],
    ['a pagerduty detail key', 'receivers[].pagerdutyConfigs[].details[].key', big('k: ')],
    ['a proxy URL', 'receivers[].webhookConfigs[].httpConfig.proxyUrl', `http://${big('[::')}`],
  ];
  it.each(cases1mb)('%s renders or is rejected without a blow-up', (_, path, value) => {
    const spec = hostileSpec(path, value);
    if (path === 'route.matchers[].value') ((spec.route as { matchers: { matchType?: string }[] }).matchers[0]!).matchType = '=~';
    const { validateMs, renderMs } = timed(spec);
    expect(validateMs).toBeLessThan(NO_BLOW_UP_MS);
    expect(renderMs).toBeLessThan(NO_BLOW_UP_MS);
  });

  it('a wide tree of nested routes with 1 MB of matchers renders without a blow-up', () => {
    const routes = Array.from({ length: 5000 }, (_, i) => ({ receiver: 'r', matchers: [{ name: 'alertname', value: `${'v'.repeat(200)}${i}`, matchType: '=~' }] }));
    const spec = { ...structuredClone(VALID_SPEC), route: { receiver: 'r', routes: [{ receiver: 'r', routes }] } };
    const { validateMs, renderMs, result } = timed(spec);
    expect(result.ok && verdictOf(result.verdicts, 'h-big')).toMatchObject({ accepted: true });
    expect(validateMs).toBeLessThan(NO_BLOW_UP_MS);
    expect(renderMs).toBeLessThan(NO_BLOW_UP_MS);
  });
});

describe('a notifier without a field Alertmanager would take from the platform\'s global section', () => {
  const without = (kind: string, field: string) => {
    const spec = structuredClone(VALID_SPEC) as unknown as { receivers: Record<string, Record<string, unknown>[]>[] };
    const receiver = spec.receivers[0]!;
    const config = { ...receiver[kind]![0]! };
    delete config[field];
    return { ...spec, receivers: [{ name: 'r', [kind]: [config] }] };
  };
  it.each([
    ['emailConfigs', 'smarthost'], ['emailConfigs', 'from'], ['slackConfigs', 'apiURL'], ['opsgenieConfigs', 'apiKey'],
    ['wechatConfigs', 'apiSecret'], ['wechatConfigs', 'corpID'], ['victoropsConfigs', 'apiKey'],
  ])('(%s without %s) is rejected with its path when the base has no global default, never breaking the file', (kind, field) => {
    const object = amcfg('h-global', 'hostile', without(kind, field));
    expect(validateAlertmanagerConfig(object).ok).toBe(true);
    const result = generate([object]);
    const verdict = verdictOf(result.verdicts, 'h-global');
    expect(verdict).toMatchObject({ selected: true, accepted: false, problems: [{ path: `spec.receivers[0].${kind}[0].${field}` }] });
    expect(amtoolCheck(written(result.text)).code).toBe(0);
  });
});
