/**
 * Every `promop` subcommand: its description (help, parsing, completion) and how to load its code. The code of a
 * command is imported only when that command runs, so `promop render` never loads the Kubernetes client and
 * `promop --help` loads nothing but this file. Nothing here may import more than command-line.ts and the registry of
 * kinds (a table of names, without the schemas; program-kinds.ts reads only that table).
 */
import type { Kind } from '@promop/crds/kinds';
import type { CommandSpec, FlagSpec } from './command-line.ts';
import { ALERTMANAGER_SOURCE_KINDS, PROMETHEUS_SOURCE_KINDS, THANOS_RULER_WORKLOAD_KINDS } from './program-kinds.ts';

/** The standard streams, as functions so tests can capture them. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A loaded command: runs with the arguments after its name and resolves to the exit status. */
export type CommandRun = (argv: readonly string[], io: CommandIo, program: string) => Promise<number>;

/** A command: its description, and its code loaded on demand. */
export interface CommandEntry {
  spec: CommandSpec;
  load: () => Promise<CommandRun>;
  /**
   * The command parses its arguments and prints its own help (`promop run`: run-command.ts); cli.ts then does not
   * answer `--help` from `spec`, and completion reads the flags from the command's `--help`.
   */
  ownHelp?: boolean;
}

/**
 * The kinds `explain` takes, per program and the teams' kinds first: on the command line each is accepted by its
 * name, plural or short name, as kubectl accepts them (kindNamed in the registry of kinds).
 */
export const EXPLAIN_KINDS: readonly Kind[] = [...PROMETHEUS_SOURCE_KINDS, ...ALERTMANAGER_SOURCE_KINDS, ...THANOS_RULER_WORKLOAD_KINDS];

/** `a|b|c`: the kinds as the synopsis spells them. */
const kindChoices = (kinds: readonly Kind[]) => kinds.map((kind) => kind.toLowerCase()).join('|');

/** The flags that choose the cluster, named and meant as kubectl's. */
export const CLUSTER_FLAGS: readonly FlagSpec[] = [
  { name: 'kubeconfig', value: '<path>', complete: 'file', help: 'kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)' },
  { name: 'context', value: '<name>', complete: 'context', help: 'kubeconfig context to use (default: its current-context)' },
];

const NAMESPACE_FLAG: FlagSpec = {
  name: 'namespace',
  short: 'n',
  value: '<namespace>',
  complete: 'namespace',
  help: "namespace of the named object (default: the context's namespace, else default)",
};

const FILENAME_FLAG: FlagSpec = {
  name: 'filename',
  short: 'f',
  value: '<file|dir>',
  repeatable: true,
  complete: 'file',
  help: 'manifest file or directory (searched recursively for .yaml/.yml/.json); repeatable',
};

const renderSpec: CommandSpec = {
  name: 'render',
  summary: 'render Prometheus configuration from local manifests, offline',
  synopsis: 'render -f <file|dir> [-f <file|dir>...] [-o <dir>]',
  description: [
    'Renders every Prometheus and PrometheusAgent in the given manifests (Prometheus, PrometheusAgent,',
    'ServiceMonitor, PodMonitor, Probe, ScrapeConfig, PrometheusRule, Namespace, Secret, ConfigMap; other kinds are ignored) with the generator the',
    'operator runs, and prints a verdict per resource: selected or not, accepted or rejected, and why.',
    'Each Alertmanager is rendered too, with the AlertmanagerConfigs it selects and its configSecret',
    'when the manifests hold it (alertmanager.yaml, alertmanager-verdicts.json), and each ThanosRuler with',
    'the PrometheusRules it selects (its rule files, thanos-ruler-verdicts.json).',
    'Manifests are read as the API server reads them (YAML 1.1 scalars such as yes, on or 0x10 included);',
    'an object the API server would refuse is reported with its field path.',
  ].join('\n'),
  flags: [
    FILENAME_FLAG,
    {
      name: 'output-dir',
      short: 'o',
      value: '<dir>',
      complete: 'directory',
      help: [
        'write <dir>/<namespace>/<name>/prometheus.yaml (shard 0),',
        'prometheus-shard-<n>.yaml, scrape-files/[shard-<n>/]<file> (the',
        'files prometheus.yaml names when the jobs do not fit inline),',
        'rules/<configmap>/<file>, tls-assets/<file>',
        'and verdicts.json (an Alertmanager: alertmanager.yaml and',
        'alertmanager-verdicts.json); without it the files are printed, with',
        'values taken from Secrets shown as <redacted> and tls-assets',
        'left out',
      ].join('\n'),
    },
  ],
  positionals: [],
  examples: [
    { comment: 'Print the configuration and the verdicts of a directory of manifests', args: 'render -f deploy/monitoring/' },
    { comment: 'Write the files Prometheus would read, to check them with promtool', args: 'render -f prometheus.yaml -f team-a/ -o out/' },
  ],
  exitStatus: '0 when rendered (even if some resources were rejected), 1 when the input cannot be\nread or the output cannot be written, 2 for wrong usage.',
};

const checkSpec: CommandSpec = {
  name: 'check',
  summary: 'fail when local manifests hold an object promop would refuse (for CI pipelines)',
  synopsis: 'check -f <file|dir> [-f <file|dir>...] [-o json|yaml]',
  description: [
    'Judges the given manifests as `promop render` does (offline, with the generators the operator runs) and',
    'fails when any object would be refused: one the API server would reject, one a Prometheus,',
    'PrometheusAgent, Alertmanager or ThanosRuler of the manifests selects and rejects, or one of those that cannot',
    'render. Prints each refused object with every field path and reason, and a count of all.',
  ].join('\n'),
  flags: [
    FILENAME_FLAG,
    { name: 'output', short: 'o', value: 'json|yaml', choices: ['json', 'yaml'], help: 'print the whole report (every object, its outcome, who judged it, its problems) for a program' },
  ],
  positionals: [],
  examples: [
    { comment: 'Gate a merge request on the team\'s manifests and the platform\'s Prometheus', args: 'check -f platform/prometheus.yaml -f team-a/' },
    { comment: 'The same, as JSON for a pipeline to read', args: 'check -f platform/ -f team-a/ -o json' },
  ],
  exitStatus: '0 when nothing would be refused, 3 when something would, 1 when the input cannot be read,\n2 for wrong usage.',
};

const explainSpec: CommandSpec = {
  name: 'explain',
  summary: 'why a monitor, rule or AlertmanagerConfig is (not) used, or what a Prometheus, agent or Alertmanager selects, on a live cluster',
  // One line per program: the two families are judged by different generators and read different kinds.
  // A ThanosRuler's line names the ruler only: its PrometheusRules are explained on the Prometheus line.
  synopsis: [PROMETHEUS_SOURCE_KINDS, ALERTMANAGER_SOURCE_KINDS, THANOS_RULER_WORKLOAD_KINDS].map((kinds) => `explain ${kindChoices(kinds)} [-n <namespace>] <name> [-o json|yaml]`).join('\n'),
  description: [
    'Reads the cluster (list and get requests only) and runs the selection and generation code of the',
    'operator. For a ServiceMonitor, PodMonitor, Probe, ScrapeConfig or PrometheusRule it tells, for every',
    'Prometheus and PrometheusAgent (rules: every Prometheus; agents evaluate none): whether it is selected',
    '(or which selector and which requirement excluded it, with the labels it saw), accepted or rejected',
    '(the field path and why), the scrape jobs or rule file it becomes, and whether the running Prometheus',
    'has loaded it (from its status). For a Prometheus or PrometheusAgent it lists what it selects and',
    'rejects per kind, with counts and reasons. For an AlertmanagerConfig it tells the same for every',
    'Alertmanager (selected by alertmanagerConfigSelector and alertmanagerConfigNamespaceSelector, accepted',
    'or rejected with the field path); for an Alertmanager, what it selects and rejects, and why its base',
    'configuration (spec.configSecret) is refused when it is. For a ThanosRuler, which PrometheusRules it',
    'selects and rejects (with the field path and why) and why the ruler itself is refused when it is.',
    'Secret values are never printed. The kind may also be given as <kind>/<name>, and in kubectl\'s short',
    'forms (smon, pmon, prb, scfg, promrule, prom, promagent, amcfg, am, ruler).',
  ].join('\n'),
  flags: [
    NAMESPACE_FLAG,
    { name: 'output', short: 'o', value: 'json|yaml', choices: ['json', 'yaml'], help: 'print the explanation as JSON or YAML, for scripts' },
    ...CLUSTER_FLAGS,
  ],
  positionals: [
    { name: 'kind', complete: 'resource-kind' },
    { name: 'name', optional: true, complete: 'none' },
  ],
  examples: [
    { comment: 'Why is team-a\'s ServiceMonitor "checkout" (not) scraped?', args: 'explain servicemonitor -n team-a checkout' },
    { comment: 'What does the Prometheus "main" select and reject, as JSON', args: 'explain prometheus -n monitoring main -o json' },
    { comment: 'In CI: fail when the rule is rejected or selected by no Prometheus', args: 'explain promrule/checkout-alerts -n team-a --context prod >/dev/null' },
    { comment: 'Does an Alertmanager take team-a\'s routes and receivers?', args: 'explain alertmanagerconfig -n team-a paging' },
  ],
  exitStatus: [
    '0 when the monitor, rule or AlertmanagerConfig is selected by at least one Prometheus, PrometheusAgent',
    'or Alertmanager and accepted by every one that selects it (for a Prometheus, agent or Alertmanager:',
    'when it has no problem of its own); 3 when it is rejected, or selected by an Alertmanager whose base',
    'configuration is refused (for a Prometheus, agent or Alertmanager: when it has problems and promop',
    'keeps its previous configuration); 4 when none selects it; 1 when the cluster cannot be read or the',
    'object does not exist; 2 for wrong usage.',
  ].join('\n'),
};

const targetsSpec: CommandSpec = {
  name: 'targets',
  summary: 'the health of a namespace\'s monitors and rules, as each Prometheus last reported it, on a live cluster',
  synopsis: 'targets [-n <namespace>] [-o json|yaml]',
  description: [
    'Lists the ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and PrometheusRules of a namespace with',
    'what each Prometheus and PrometheusAgent that selects them last reported, as the operator wrote it into',
    'their status (promop run --health-interval): targets up of those active and the most frequent scrape',
    'error (redacted), rules failing and why, or why the Prometheus rejects the object. Reads the objects\'',
    'status only (list requests in the namespace); no Prometheus is called.',
  ].join('\n'),
  flags: [
    { ...NAMESPACE_FLAG, help: "namespace whose monitors and rules to list (default: the context's namespace, else default)" },
    { name: 'output', short: 'o', value: 'json|yaml', choices: ['json', 'yaml'], help: 'print the rows as JSON or YAML, for scripts' },
    ...CLUSTER_FLAGS,
  ],
  positionals: [],
  examples: [
    { comment: 'Are team-a\'s targets up, and do its rules evaluate?', args: 'targets -n team-a' },
    { comment: 'In CI or a script: fail when anything of team-a is down, failing or rejected', args: 'targets -n team-a -o json > health.json' },
  ],
  exitStatus: [
    '0 when nothing listed is unhealthy, 3 when a monitor finds no target or has targets down, a rule',
    'fails, or a Prometheus rejects one; 1 when the cluster cannot be read; 2 for wrong usage.',
  ].join('\n'),
};

const diffSpec: CommandSpec = {
  name: 'diff',
  summary: 'what applying manifests would change in each Prometheus, agent, Alertmanager or ThanosRuler configuration (like kubectl diff)',
  synopsis: 'diff -f <file|dir> [-f <file|dir>...] [-n <namespace>] [--context <name>]',
  description: [
    'Reads the cluster\'s Prometheus, PrometheusAgent, ServiceMonitor, PodMonitor, Probe, ScrapeConfig,',
    'PrometheusRule, Namespace and the referenced Secret and ConfigMap objects (and the Alertmanager kinds',
    'when the manifests can change an Alertmanager: they hold one of its kinds, a Secret or a Namespace;',
    'ThanosRulers when they hold a ThanosRuler, a PrometheusRule, a Namespace, a Secret or a ConfigMap),',
    'lays the given manifests over them as `kubectl apply` would (same kind, namespace and name replaces;',
    'new ones are added), renders every Prometheus configuration (agents included), every Alertmanager',
    'configuration and every ThanosRuler\'s rule files before and after with the operator\'s generators, and',
    'prints for each a unified diff of prometheus.yaml (and its scrape files, when the jobs do not fit inline)',
    'and of the rule files, or of alertmanager.yaml, and the verdicts that change (newly rejected, no longer',
    'selected...). Secret values, and every secret field of alertmanager.yaml, are shown as <redacted>.',
    'Manifests are read as the API',
    'server reads them; an object it would refuse is reported with its field path.',
  ].join('\n'),
  flags: [FILENAME_FLAG, { ...NAMESPACE_FLAG, help: "namespace of the manifests' objects that name none (default: the context's)" }, ...CLUSTER_FLAGS],
  positionals: [],
  examples: [
    { comment: 'What would applying team-a\'s monitoring change?', args: 'diff -f team-a/monitoring/' },
    { comment: 'In CI, against the production context', args: 'diff -f servicemonitor.yaml --context prod' },
  ],
  exitStatus: [
    '0 when nothing would change, 1 when something would change (as kubectl diff and diff(1)),',
    '3 when a resource of the manifests would be refused by the API server or rejected by a',
    'Prometheus, Alertmanager or ThanosRuler that selects it, or an Alertmanager or ThanosRuler would get',
    'a problem of its own',
    '(whatever else changes), 2 for wrong usage or when the manifests or the cluster cannot be read.',
  ].join('\n'),
};

const completionSpec: CommandSpec = {
  name: 'completion',
  summary: 'print a bash or zsh completion script',
  synopsis: 'completion bash|zsh',
  description: [
    'Prints a script that completes promop\'s commands, flags, flag values, kinds and files; namespaces,',
    'contexts and object names are read from the cluster and kubeconfig the command line names. Each',
    'TAB asks `promop __complete <words>` (cobra\'s protocol). `kubectl promop` completes too (kubectl',
    '1.26+): kubectl asks the kubectl_complete-promop command, installed with promop.',
  ].join('\n'),
  flags: [],
  positionals: [{ name: 'shell', choices: ['bash', 'zsh'] }],
  examples: [
    { comment: 'Install it for bash (or: source <(promop completion bash))', args: 'completion bash > ~/.local/share/bash-completion/completions/promop' },
    { comment: 'Install it for zsh', args: 'completion zsh > "${fpath[1]}/_promop"' },
  ],
  exitStatus: '0, or 2 for wrong usage.',
};

const runSpec: CommandSpec = {
  name: 'run',
  summary: 'run the operator against a cluster (what the Helm chart deploys; promop run --help)',
  // run-command.ts parses and documents its own flags; completion reads them from its --help.
  synopsis: 'run [flags]',
  description: 'Runs the operator; see docs/controller.md.',
  flags: [],
  positionals: [],
  examples: [{ comment: 'Run the operator with a kubeconfig', args: 'run --kubeconfig ~/.kube/config' }],
  exitStatus: '0 after SIGINT/SIGTERM, 1 when it cannot start, 2 for wrong usage.',
};

/** Every command, in the order `promop --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { spec: explainSpec, load: async () => (await import('./explain-command.ts')).runExplainCommand },
  { spec: targetsSpec, load: async () => (await import('./targets-command.ts')).runTargetsCommand },
  { spec: diffSpec, load: async () => (await import('./diff-command.ts')).runDiffCommand },
  { spec: renderSpec, load: async () => (await import('./render-command.ts')).runRenderCommand },
  { spec: checkSpec, load: async () => (await import('./check-command.ts')).runCheckCommand },
  { spec: completionSpec, load: async () => (await import('./completion.ts')).runCompletionCommand },
  { spec: runSpec, load: async () => (await import('../run-command.ts')).runOperatorCommand, ownHelp: true },
];

/** The entry of `name`, or undefined. */
export function commandNamed(name: string): CommandEntry | undefined {
  return COMMANDS.find((entry) => entry.spec.name === name);
}

/** The spec of `name`; throws for a name that is not a command (a bug: callers pass constants). */
export function specOf(name: string): CommandSpec {
  const entry = commandNamed(name);
  if (!entry) throw new Error(`bug: no command "${name}"`);
  return entry.spec;
}
