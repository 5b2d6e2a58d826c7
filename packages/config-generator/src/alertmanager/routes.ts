/**
 * An AlertmanagerConfig's route tree → Alertmanager's route, as prometheus-operator v0.93 converts it: receiver and
 * time interval names prefixed with `<namespace>/<object>/`, matchers as `matchers` strings, the keys in
 * Alertmanager's order, a zero group_interval or repeat_interval left out. Nested routes arrive untyped (the CRD
 * keeps them opaque, as upstream's does), so each is read field by field here with the same checks as the top
 * route, and an unknown field is a problem, as upstream's strict decoding makes it.
 */
import type { AlertmanagerMatcher } from '@promop/crds';
import { DURATION_PATTERN } from '@promop/crds';
import type { Findings } from '../findings.ts';
import { shownValue as shown } from './shown-value.ts';
import { isRecord } from '../values/is-record.ts';
import { withoutUndefined } from './without-undefined.ts';
import { renderMatchers } from './matchers.ts';

/**
 * How deep routes may nest. Alertmanager walks the tree recursively on every alert; no real routing tree comes
 * near this, and a deeper one from a hostile object would cost the operator and Alertmanager stack depth.
 */
export const MAX_ROUTE_DEPTH = 16;

const ROUTE_FIELDS: ReadonlySet<string> = new Set([
  'receiver', 'groupBy', 'groupWait', 'groupInterval', 'repeatInterval', 'matchers', 'continue', 'routes', 'muteTimeIntervals', 'activeTimeIntervals',
]);
const DURATION = new RegExp(DURATION_PATTERN);

/** What the route conversion needs from the AlertmanagerConfig around it. */
export interface RouteContext {
  findings: Findings;
  /** `<namespace>/<object>/` + a name of the object: how its receivers and time intervals are named in the file. */
  qualified: (name: string) => string;
  /** The object's receiver names and time interval names, which its routes may refer to. */
  receivers: ReadonlySet<string>;
  timeIntervals: ReadonlySet<string>;
}

/** The route at `path` (`spec.route`, or a nested `…routes[i]`) in Alertmanager's format; problems go to findings. */
export function renderRoute(route: unknown, path: string, context: RouteContext, depth = 0): Record<string, unknown> {
  const { findings } = context;
  if (!isRecord(route)) {
    findings.problem(path, 'must be an object with the fields of a route');
    return {};
  }
  for (const key of Object.keys(route)) if (!ROUTE_FIELDS.has(key)) findings.problem(`${path}.${key}`, 'is not a field of a route');

  const receiver = stringField(route, 'receiver', path, findings);
  if (depth === 0 && !receiver) findings.problem(`${path}.receiver`, 'the top route needs a receiver');
  if (receiver && !context.receivers.has(receiver)) findings.problem(`${path}.receiver`, `no receiver named ${shown(receiver)} in spec.receivers`);

  const groupBy = stringList(route, 'groupBy', path, findings);
  if (groupBy) {
    const seen = new Set<string>();
    groupBy.forEach((label, i) => {
      // Alertmanager refuses an empty label name in group_by when it loads the file.
      if (label === '') findings.problem(`${path}.groupBy[${i}]`, 'an empty string is not a label name');
      if (seen.has(label)) findings.problem(`${path}.groupBy[${i}]`, `${shown(label)} is listed twice`);
      seen.add(label);
    });
    if (groupBy.includes('...') && groupBy.length > 1) findings.problem(`${path}.groupBy`, '"..." (group by every label) must be the only entry');
  }

  const durations = Object.fromEntries((['groupWait', 'groupInterval', 'repeatInterval'] as const).map((key) => {
    const value = stringField(route, key, path, findings);
    if (value !== undefined && (value === '' || !DURATION.test(value))) {
      findings.problem(`${path}.${key}`, `${shown(value)} is not a duration such as 30s, 5m or 4h`);
      return [key, undefined];
    }
    return [key, value];
  })) as Record<'groupWait' | 'groupInterval' | 'repeatInterval', string | undefined>;

  const matchersField = route.matchers;
  let matchers: string[] = [];
  if (matchersField !== undefined) {
    if (!Array.isArray(matchersField) || !matchersField.every(isRecord)) findings.problem(`${path}.matchers`, 'must be a list of matchers');
    else matchers = renderMatchers(matchersField as AlertmanagerMatcher[], `${path}.matchers`, findings);
  }

  const continues = route.continue;
  if (continues !== undefined && typeof continues !== 'boolean') findings.problem(`${path}.continue`, 'must be true or false');

  const intervalNames = (key: 'muteTimeIntervals' | 'activeTimeIntervals') => {
    const names = stringList(route, key, path, findings) ?? [];
    names.forEach((name, i) => {
      if (!context.timeIntervals.has(name)) findings.problem(`${path}.${key}[${i}]`, `no time interval named ${shown(name)} in spec.muteTimeIntervals`);
    });
    return names;
  };
  const mute = intervalNames('muteTimeIntervals');
  const active = intervalNames('activeTimeIntervals');

  let children: Record<string, unknown>[] = [];
  if (route.routes !== undefined) {
    if (!Array.isArray(route.routes)) findings.problem(`${path}.routes`, 'must be a list of routes');
    else if (route.routes.length > 0 && depth + 1 >= MAX_ROUTE_DEPTH) findings.problem(`${path}.routes`, `routes nest more than ${MAX_ROUTE_DEPTH} levels deep`);
    else children = route.routes.map((child, i) => renderRoute(child, `${path}.routes[${i}]`, context, depth + 1));
  }

  return withoutUndefined({
    receiver: receiver ? context.qualified(receiver) : undefined,
    group_by: groupBy && groupBy.length > 0 ? groupBy : undefined,
    matchers: matchers.length > 0 ? matchers : undefined,
    continue: continues === true ? true : undefined,
    routes: children.length > 0 ? children : undefined,
    group_wait: durations.groupWait,
    // Alertmanager refuses a zero group_interval or repeat_interval; upstream leaves them out (the parent's holds).
    group_interval: isZero(durations.groupInterval) ? undefined : durations.groupInterval,
    repeat_interval: isZero(durations.repeatInterval) ? undefined : durations.repeatInterval,
    mute_time_intervals: mute.length > 0 ? mute.map(context.qualified) : undefined,
    active_time_intervals: active.length > 0 ? active.map(context.qualified) : undefined,
  });
}

function stringField(route: Record<string, unknown>, key: string, path: string, findings: Findings): string | undefined {
  const value = route[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    findings.problem(`${path}.${key}`, 'must be a string');
    return undefined;
  }
  return value;
}

function stringList(route: Record<string, unknown>, key: string, path: string, findings: Findings): string[] | undefined {
  const value = route[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((each) => typeof each === 'string')) {
    findings.problem(`${path}.${key}`, 'must be a list of strings');
    return undefined;
  }
  return value as string[];
}

/** Whether a duration (already checked against the pattern) is zero: no digit in it but 0. */
function isZero(duration: string | undefined): boolean {
  return duration !== undefined && !/[1-9]/.test(duration);
}
