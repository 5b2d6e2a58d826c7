/**
 * What changes for each Alertmanager between two snapshots (pure), for `promop diff`: each is rendered as its
 * reconciler renders it (alertmanager-rendering.ts, through alertmanager-explanation.ts, which also says how each
 * AlertmanagerConfig stands), and compared as a Prometheus is (config-diff.ts): the AlertmanagerConfig verdicts that
 * change and a unified diff of alertmanager.yaml. Before diffing, secret fields are masked (the base configuration
 * is a Secret's content) and so are the values of the Secrets read.
 */
import type { ResourceRef } from '@promop/config-generator';
import type { Alertmanager } from '@promop/crds';
import { ALERTMANAGER_CONFIG_KEY } from '../alertmanager/alertmanager-children.ts';
import {
  alertmanagerKeyOf, alertmanagersOf, explainAlertmanager, renderAlertmanagerFromSnapshot,
  type AlertingSnapshot, type AlertmanagerConfigStanding, type AlertmanagerExplanation,
} from './alertmanager-explanation.ts';
import type { AlertmanagerRendering } from '../alertmanager/alertmanager-rendering.ts';
import { redactAlertmanagerSecrets } from './alertmanager-secret-redaction.ts';
import { compareFiles, compareStandings, configurationChanges, standingKey, type ConfigurationChanges, type FilesByKey, type Standing, type Standings } from './config-diff.ts';
import { redactSecretValues } from './secret-redaction.ts';

/** Everything that changes for one Alertmanager. */
export interface AlertmanagerDiff extends ConfigurationChanges {
  alertmanager: { kind: 'Alertmanager'; namespace: string; name: string };
  /** The AlertmanagerConfigs it rejects after the apply, changed or not, as `namespace/name`. */
  rejectedAfter: string[];
}

/** One Alertmanager rendered from one snapshot, with its AlertmanagerConfigs' standings. */
interface JudgedAlertmanager {
  rendering: AlertmanagerRendering;
  explanation: AlertmanagerExplanation;
}

/**
 * Compares every Alertmanager of `after` with the same one in `before` (none: it is created). `secrets`: the
 * Secret values to mask (secret-redaction.ts).
 */
export function diffAlertmanagers(before: AlertingSnapshot, after: AlertingSnapshot, secrets: readonly string[]): AlertmanagerDiff[] {
  const previous = new Map(alertmanagersOf(before).map((alertmanager) => [alertmanagerKeyOf(alertmanager), alertmanager]));
  return alertmanagersOf(after).map((alertmanager) => {
    const old = previous.get(alertmanagerKeyOf(alertmanager));
    return diffAlertmanager(old ? judge(before, old) : undefined, judge(after, alertmanager), secrets);
  });
}

function judge(snapshot: AlertingSnapshot, alertmanager: Alertmanager): JudgedAlertmanager {
  const rendering = renderAlertmanagerFromSnapshot(snapshot, alertmanager);
  return { rendering, explanation: explainAlertmanager(snapshot, alertmanager, rendering) };
}

function diffAlertmanager(before: JudgedAlertmanager | undefined, after: JudgedAlertmanager, secrets: readonly string[]): AlertmanagerDiff {
  const { namespace, name } = after.explanation;
  const verdictChanges = compareStandings(before ? standingsOf(before) : new Map(), standingsOf(after));
  const redact = (text: string) => redactSecretValues(redactAlertmanagerSecrets(text), secrets);
  // A refused configuration is not written: the pods keep the running one, so there is no file to compare with.
  const files = after.rendering.output.ok ? compareFiles(`${namespace}/${name}`, before ? filesOf(before) : new Map(), filesOf(after), redact) : [];
  const problemsBefore = before?.explanation.problem ? [before.explanation.problem] : [];
  const problemsAfter = after.explanation.problem ? [after.explanation.problem] : [];
  const rejectedAfter = after.explanation.alertmanagerConfigs.resources.filter((resource) => resource.state === 'rejected').map((resource) => `${resource.namespace}/${resource.name}`);
  return {
    alertmanager: { kind: 'Alertmanager', namespace, name },
    ...configurationChanges(before !== undefined, { problemsBefore, problemsAfter, verdictChanges, files }),
    rejectedAfter,
  };
}

function standingsOf({ explanation }: JudgedAlertmanager): Standings {
  return new Map(explanation.alertmanagerConfigs.resources.map((resource) => {
    const ref: ResourceRef = { kind: 'AlertmanagerConfig', namespace: resource.namespace, name: resource.name };
    return [standingKey(ref), { resource: ref, standing: standingOf(resource) }];
  }));
}

/** An AlertmanagerConfig's standing as config-diff.ts writes a monitor's: every problem of a rejected one. */
function standingOf(resource: AlertmanagerConfigStanding): Standing {
  if (resource.state === 'accepted') return { state: 'accepted' };
  const reason = resource.problems ? resource.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ') : resource.reason;
  return { state: resource.state, ...(reason !== undefined ? { reason } : {}) };
}

function filesOf({ rendering }: JudgedAlertmanager): FilesByKey {
  const { output } = rendering;
  return new Map(output.ok ? [[ALERTMANAGER_CONFIG_KEY, { path: ALERTMANAGER_CONFIG_KEY, text: output.text }]] : []);
}
