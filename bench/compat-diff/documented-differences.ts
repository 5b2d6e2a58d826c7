/**
 * Differences docs/compatibility.md explains, recognised by their shape so the report keeps them apart from new
 * ones. Each rule names the section of docs/compatibility.md that gives the reason. A rule must be narrow: it looks
 * at both sides of the one difference, never at a case's name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { runPromtool } from '@promop/testkit';
import type { ConfigDifference } from '@promop/testkit';

type Mapping = Record<string, unknown>;

/** A difference and the two whole jobs it is in (undefined when the job is on one side only or not a job). */
export interface DifferenceInContext {
  difference: ConfigDifference;
  upstreamJob: Mapping | undefined;
  promopJob: Mapping | undefined;
  upstreamGlobal: unknown;
  /** Every job promop wrote for the case. */
  promopJobs: Mapping[];
  /** The case's objects as both operators read them. */
  objects: Mapping[];
}

const SELECTOR_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** A label requirement Kubernetes cannot read: an unknown operator, or a value count its operator cannot take. */
function unreadableRequirement(expression: Mapping): boolean {
  const operator = String(expression.operator);
  const count = Array.isArray(expression.values) ? expression.values.length : 0;
  if (!SELECTOR_OPERATORS.has(operator)) return true;
  return operator === 'In' || operator === 'NotIn' ? count === 0 : count > 0;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** `(<values>);true` with each value no label can have quoted as Go's regexp.QuoteMeta quotes it, as promop writes it. */
function withInvalidValuesQuoted(regex: string): string | undefined {
  const inner = /^\((.*)\);true$/s.exec(regex)?.[1];
  if (inner === undefined) return undefined;
  const quoted = inner.split('|').map((value) => (value.length <= 63 && LABEL_VALUE.test(value) ? value : value.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')));
  return `(${quoted.join('|')});true`;
}

/** The Probe behind a `probe/<namespace>/<name>` job, when its Ingress selector holds such a requirement. */
function probeWithUnreadableIngressSelector(jobName: string, objects: Mapping[]): boolean {
  const name = /^probe\/[^/]+\/([^/]+)$/.exec(jobName)?.[1];
  const probe = objects.find((object) => object.kind === 'Probe' && (object.metadata as Mapping).name === name);
  const targets = (probe?.spec as Mapping | undefined)?.targets as Mapping | undefined;
  if (!targets || targets.staticConfig) return false;
  const expressions = ((targets.ingress as Mapping | undefined)?.selector as Mapping | undefined)?.matchExpressions;
  return Array.isArray(expressions) && expressions.some((expression) => unreadableRequirement(expression as Mapping));
}

/** Two jobs of one monitor: `serviceMonitor/<ns>/<name>/<i>` share everything before the endpoint index. */
function sameObject(a: Mapping, b: Mapping): boolean {
  const objectOf = (job: Mapping): string => String(job.job_name).replace(/\/\d+$/, '');
  return objectOf(a) === objectOf(b);
}

const OTHER_AUTH_KEYS = ['basic_auth', 'oauth2', 'bearer_token', 'bearer_token_file'];

const ZERO_DURATION = /^0+[a-z]*$/;

/** Rules that need nothing but the two sides. */
const RULES: { reason: string; matches: (item: DifferenceInContext) => boolean }[] = [
  {
    reason: "`$(SHARD)` written in a monitor's own field: prometheus-operator's reloader substitutes it, promop leaves it (docs/compatibility.md, Shards)",
    matches: ({ difference }) => typeof difference.promop === 'string' && difference.promop.includes('$(SHARD)') && difference.prometheusOperator === difference.promop.replaceAll('$(SHARD)', '0'),
  },
  {
    reason: 'scrape_protocols emptied by the version filter: promop omits the key, prometheus-operator writes [] (same meaning to Prometheus)',
    matches: ({ difference }) => difference.path.endsWith('.scrape_protocols') && Array.isArray(difference.prometheusOperator) && difference.prometheusOperator.length === 0 && difference.promop === undefined,
  },
  {
    reason: 'interval "0" with a scrapeTimeout: Prometheus takes the global interval, promop accepts, prometheus-operator rejects (docs/compatibility.md)',
    // Upstream rejects the whole monitor, so every job of it is missing there: look at the monitor's other jobs too.
    matches: ({ difference, upstreamJob, promopJob, promopJobs }) =>
      /^scrape_configs\[[^\]]+\]$/.test(difference.path) && !upstreamJob && !!promopJob &&
      promopJobs.some((job) => sameObject(job, promopJob) && ZERO_DURATION.test(String(job.scrape_interval ?? '')) && job.scrape_timeout !== undefined),
  },
  {
    reason: 'enforced namespace label on a ScrapeConfig without relabelings (docs/compatibility.md, ScrapeConfigs)',
    matches: ({ difference }) => {
      if (!/^scrape_configs\[scrapeConfig\/[^\]]+\]\.relabel_configs$/.test(difference.path)) return false;
      const upstream = difference.prometheusOperator as Mapping[] | undefined;
      const promop = difference.promop as Mapping[] | undefined;
      if (!Array.isArray(upstream) || !Array.isArray(promop) || promop.length !== upstream.length + 1) return false;
      const extra = promop.findIndex((rule, i) => JSON.stringify(rule) !== JSON.stringify(upstream[i]));
      const rule = promop[extra];
      const rest = promop.filter((_, i) => i !== extra);
      return !!rule && Object.keys(rule).join() === 'target_label,replacement' && JSON.stringify(rest) === JSON.stringify(upstream);
    },
  },
  {
    reason: "scrape class authorization credentials: prometheus-operator never reads the class' Secret (docs/compatibility.md, Configuration generation)",
    matches: ({ difference }) => difference.path.endsWith('.authorization.credentials') && difference.prometheusOperator === undefined && typeof difference.promop === 'string',
  },
  {
    reason: "a Probe's Ingress selector value no label can have: promop quotes it in the keep/drop regex, prometheus-operator writes it as it is (docs/compatibility.md, Probes)",
    matches: ({ difference }) =>
      /^scrape_configs\[probe\/[^\]]+\]\.relabel_configs\[\d+\]\.regex$/.test(difference.path) && typeof difference.prometheusOperator === 'string' &&
      difference.promop !== difference.prometheusOperator && withInvalidValuesQuoted(difference.prometheusOperator) === difference.promop,
  },
  {
    reason: "a Probe's Ingress selector Kubernetes cannot read (unknown operator, wrong value count): prometheus-operator writes the job, promop rejects the Probe (docs/compatibility.md, Probes)",
    matches: ({ difference, upstreamJob, promopJob, objects }) =>
      /^scrape_configs\[probe\/[^\]]+\]$/.test(difference.path) && !!upstreamJob && !promopJob && probeWithUnreadableIngressSelector(String(upstreamJob.job_name), objects),
  },
  {
    reason: 'scrape class authorization not added to an endpoint with its own authentication: two methods, refused by Prometheus (docs/compatibility.md)',
    matches: ({ difference, upstreamJob }) =>
      /\]\.authorization$/.test(difference.path) && difference.promop === undefined && !!upstreamJob && OTHER_AUTH_KEYS.some((key) => key in upstreamJob),
  },
];

/**
 * The documented reason for a difference, or undefined. A job only prometheus-operator writes is explained when
 * promtool (`check config --syntax-only`, which skips file existence) refuses it: promop rejected an object whose
 * job Prometheus would refuse.
 */
export async function documentedReason(item: DifferenceInContext, scratchDirectory: string): Promise<string | undefined> {
  const rule = RULES.find((candidate) => candidate.matches(item));
  if (rule) return rule.reason;
  if (/^scrape_configs\[[^\]]+\]$/.test(item.difference.path) && item.upstreamJob && !item.promopJob) {
    const file = join(scratchDirectory, 'upstream-job.yaml');
    writeFileSync(file, dump({ global: item.upstreamGlobal, scrape_configs: [item.upstreamJob] }, { lineWidth: -1 }));
    const result = await runPromtool(['check', 'config', '--syntax-only', file]);
    if (result.code !== 0) return `prometheus-operator writes a job Prometheus refuses (${lastLine(result.stdout + result.stderr)}); promop rejects the object (docs/compatibility.md)`;
  }
  return undefined;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return (lines.find((line) => line.startsWith('FAILED')) ?? lines.at(-1) ?? '').slice(0, 300);
}
