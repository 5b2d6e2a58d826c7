/**
 * AlertmanagerConfig (monitoring.coreos.com/v1alpha1): a team's part of an Alertmanager's configuration, in its own
 * namespace: a route (with nested routes), the receivers it names, inhibit rules and time intervals. The operator
 * confines each to the team's alerts (the Alertmanager's `alertmanagerConfigMatcherStrategy`) and names everything
 * it contributes after the object, so no team can route, silence or inhibit another team's alerts.
 */
import { DURATION_PATTERN, bool, embeddedList, oneOf, str, stringList } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';
import { receiverSchema } from './alertmanager-config-receivers.ts';

/** A duration as prometheus-operator's NonEmptyDuration: Prometheus' syntax, never empty. */
function nonEmptyDuration<const D extends string>(description: D) {
  return { type: 'string', minLength: 1, pattern: DURATION_PATTERN, description } as const;
}

/** One label matcher of a route or an inhibit rule. */
export const alertmanagerMatcherSchema = {
  type: 'object',
  description: 'A matcher on one alert label.',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Label name.' },
    value: str('Label value, or the regular expression for =~ and !~.'),
    matchType: oneOf(['!=', '=', '=~', '!~'], 'How the value is compared (default =, or =~ when regex is true).'),
    regex: bool('Deprecated: use matchType. Whether value is a regular expression.'),
  },
} as const;

const matcherList = <const D extends string>(description: D) => ({ type: 'array', items: alertmanagerMatcherSchema, description }) as const;

/**
 * A route. Nested routes (`routes`) have the same fields; like prometheus-operator, the CRD keeps them opaque (a
 * schema cannot refer to itself), and promop checks each one as it checks the top route, with its field path.
 */
export const alertmanagerRouteSchema = {
  type: 'object',
  description: 'Which alerts go to which receiver, and how they are grouped.',
  additionalProperties: false,
  properties: {
    receiver: str('Name of a receiver of this AlertmanagerConfig (required on the top route).'),
    groupBy: stringList('Labels alerts are grouped by; ... groups by every label.'),
    groupWait: nonEmptyDuration('How long to wait before the first notification of a new group.'),
    groupInterval: nonEmptyDuration('How long to wait before notifying about alerts added to a group.'),
    repeatInterval: nonEmptyDuration('How long to wait before repeating a notification.'),
    matchers: matcherList('Label matchers an alert must satisfy to take this route.'),
    continue: bool('Whether later sibling routes are tried after this one matched (always true for the top route).'),
    routes: embeddedList('Child routes, each with the fields of this route.'),
    muteTimeIntervals: stringList('Time intervals (of this AlertmanagerConfig) during which the route sends nothing.'),
    activeTimeIntervals: stringList('Time intervals (of this AlertmanagerConfig) outside which the route sends nothing.'),
  },
} as const;

/** An inhibit rule: alerts matching targetMatch are muted while an alert matching sourceMatch fires. */
export const inhibitRuleSchema = {
  type: 'object',
  description: 'Mutes alerts (targets) while other alerts (sources) fire.',
  additionalProperties: false,
  properties: {
    targetMatch: matcherList('Matchers the muted alerts satisfy.'),
    sourceMatch: matcherList('Matchers the muting alerts satisfy.'),
    equal: stringList('Labels whose values must be equal in source and target.'),
  },
} as const;

const TIME_PATTERN = '^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)';

/** One interval of time: every listed part must hold (an absent part always holds). */
export const timeIntervalSchema = {
  type: 'object',
  description: 'A recurring interval of time.',
  additionalProperties: false,
  properties: {
    times: {
      type: 'array',
      description: 'Times of day.',
      items: {
        type: 'object',
        description: 'A range of the day, in UTC.',
        additionalProperties: false,
        properties: {
          startTime: { type: 'string', pattern: TIME_PATTERN, description: 'Start, HH:MM.' },
          endTime: { type: 'string', pattern: TIME_PATTERN, description: 'End, HH:MM (24:00 for the end of the day).' },
        },
      },
    },
    // prometheus-operator's CRD checks weekdays and months with case-insensitive patterns (`(?i)`), which the
    // validators' JavaScript regular expressions cannot express; promop checks them when it renders (the reason and
    // the field path go to the object's status), see docs/compatibility.md.
    weekdays: stringList('Days of the week, e.g. monday or monday:friday (any case).'),
    daysOfMonth: {
      type: 'array',
      description: 'Days of the month; negative numbers count from its end.',
      items: {
        type: 'object',
        description: 'A range of days of the month.',
        additionalProperties: false,
        properties: {
          start: { type: 'integer', minimum: -31, maximum: 31, description: 'First day.' },
          end: { type: 'integer', minimum: -31, maximum: 31, description: 'Last day.' },
        },
      },
    },
    months: stringList('Months, by name (any case) or number, e.g. january:march or 1:3.'),
    years: {
      type: 'array',
      description: 'Years, e.g. 2027 or 2027:2029.',
      items: { type: 'string', pattern: '^2\\d{3}(?::2\\d{3}|$)' },
    },
  },
} as const;

/** A named set of time intervals that routes mute or activate by. */
export const muteTimeIntervalSchema = {
  type: 'object',
  description: 'A named set of time intervals.',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: str('Name, unique in this AlertmanagerConfig, that routes refer to.'),
    timeIntervals: { type: 'array', items: timeIntervalSchema, description: 'The intervals; the set holds when one of them does.' },
  },
} as const;

/** AlertmanagerConfig spec. */
export const alertmanagerConfigSpecSchema = {
  type: 'object',
  description: 'A team\'s routes, receivers, inhibit rules and time intervals, confined to its namespace\'s alerts.',
  additionalProperties: false,
  properties: {
    route: alertmanagerRouteSchema,
    receivers: {
      type: 'array', items: receiverSchema, description: 'Receivers the routes name (names unique).',
      'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
    },
    inhibitRules: { type: 'array', items: inhibitRuleSchema, description: 'Inhibit rules.' },
    muteTimeIntervals: { type: 'array', items: muteTimeIntervalSchema, description: 'Time intervals the routes name.' },
  },
} as const;

/** AlertmanagerConfig status: which Alertmanagers selected it and whether they accepted it. */
export const alertmanagerConfigStatusSchema = configResourceStatusSchema;
