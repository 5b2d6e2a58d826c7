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
