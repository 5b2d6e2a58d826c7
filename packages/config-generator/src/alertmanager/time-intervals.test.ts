/**
 * AlertmanagerConfig mute time intervals → Alertmanager's `time_intervals` entries: the normal form
 * prometheus-operator v0.93 writes (it parses into Alertmanager's types and marshals them again), Alertmanager's own
 * loader (amtool check-config, Alertmanager 0.35) accepting every rendering, and the problems a team gets on its
 * object instead of an Alertmanager configuration refused for every team.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import type { AlertmanagerConfig, MuteTimeInterval } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import { Findings } from '../findings.ts';
import { SecretStore } from '../secret-store.ts';
import { renderAlertmanagerConfig } from './alertmanager-configuration.ts';
import { renderTimeInterval } from './time-intervals.ts';

type Interval = NonNullable<MuteTimeInterval['timeIntervals']>[number];

const PATH = 'spec.muteTimeIntervals[0]';
const AT = `${PATH}.timeIntervals[0]`;

function render(interval: MuteTimeInterval, findings = new Findings(), path = PATH) {
  const rendered = renderTimeInterval(interval, { path, findings, name: `team-a/alerting/${interval.name}` });
  return { rendered, findings };
}

/** The one interval written for `interval`, checked to have no problems. */
function renderedInterval(interval: Interval): Record<string, unknown> {
  const { rendered, findings } = render({ name: 'window', timeIntervals: [interval] });
  expect(findings.problems).toEqual([]);
  return (rendered.time_intervals as Array<Record<string, unknown>>)[0]!;
}

/** The problems found for one interval. */
function problemsOf(interval: Interval) {
  return render({ name: 'window', timeIntervals: [interval] }).findings.problems;
}

const dir = mkdtempSync(join(tmpdir(), 'promop-am-time-intervals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Alertmanager's loader on the smallest configuration holding `entries` and a route muted by each of them. */
function amtoolCheck(entries: Array<Record<string, unknown>>): { code: number | null; output: string } {
  const config = {
    route: { receiver: 'r', routes: entries.map((entry) => ({ receiver: 'r', mute_time_intervals: [entry.name] })) },
    receivers: [{ name: 'r' }],
    time_intervals: entries,
  };
  const file = join(dir, `alertmanager-${files++}.yaml`);
  writeFileSync(file, dump(config));
  const result = spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Alertmanager's loader on one raw (not rendered) interval. */
function amtoolCheckRaw(interval: Record<string, unknown>) {
  return amtoolCheck([{ name: 'raw', time_intervals: [interval] }]);
}

/** prometheus-operator's "CR with Mute Time Intervals" test case (amcfg_test.go), as its AlertmanagerConfig. */
const UPSTREAM_CASE: MuteTimeInterval = {
  name: 'test',
  timeIntervals: [{
    times: [{ startTime: '08:00', endTime: '17:00' }],
    weekdays: ['Saturday', 'Sunday'],
    months: ['January:March'],
    daysOfMonth: [{ start: 1, end: 10 }],
    years: ['2030:2050'],
  }],
};

/** Inputs a team may write, each with how Alertmanager's configuration must say it. */
const ACCEPTED: Array<{ story: string; interval: Interval; expected: Record<string, unknown> }> = [
  {
    story: 'office hours on weekdays',
    interval: { times: [{ startTime: '09:00', endTime: '17:30' }], weekdays: ['monday:friday'] },
    expected: { times: [{ start_time: '09:00', end_time: '17:30' }], weekdays: ['monday:friday'] },
  },
  {
    story: 'weekdays in any case',
    interval: { weekdays: ['SATURDAY', 'Sunday', 'MoNdAy:friDAY', 'Wednesday:WEDNESDAY'] },
    expected: { weekdays: ['saturday', 'sunday', 'monday:friday', 'wednesday'] },
  },
  {
    story: 'months by name in any case, or by number',
    interval: { months: ['January:March', 'APRIL', 'may:6', '7:September', '10:12', 'december:DECEMBER', '11'] },
    expected: { months: ['1:3', '4', '5:6', '7:9', '10:12', '12', '11'] },
  },
  {
    story: 'days of the month, from the start and from the end',
    interval: { daysOfMonth: [{ start: 1, end: 10 }, { start: 15, end: 15 }, { start: -3, end: -1 }, { start: 20, end: -1 }, { start: 31, end: 31 }, { start: -31, end: -28 }] },
    expected: { days_of_month: ['1:10', '15', '-3:-1', '20:-1', '31', '-31:-28'] },
  },
  {
    story: 'years',
    interval: { years: ['2030:2050', '2027', '2028:2028'] },
    expected: { years: ['2030:2050', '2027', '2028'] },
  },
  {
    story: 'a night split at midnight, up to 24:00',
    interval: { times: [{ startTime: '22:00', endTime: '24:00' }, { startTime: '00:00', endTime: '06:15' }] },
    expected: { times: [{ start_time: '22:00', end_time: '24:00' }, { start_time: '00:00', end_time: '06:15' }] },
  },
  {
    story: 'an interval with no parts (it always holds)',
    interval: {},
    expected: {},
  },
  {
    story: 'parts given as empty lists (left out, as Alertmanager leaves them out)',
    interval: { times: [], weekdays: [], daysOfMonth: [], months: [], years: ['2031'] },
    expected: { years: ['2031'] },
  },
];

describe('a team\'s mute time interval', () => {
  it('is written as prometheus-operator v0.93 writes its "CR with Mute Time Intervals" golden file', () => {
    const { rendered, findings } = render(UPSTREAM_CASE, new Findings());
    expect(findings.problems).toEqual([]);
    expect(rendered).toEqual({
      name: 'team-a/alerting/test',
      time_intervals: [{
        times: [{ start_time: '08:00', end_time: '17:00' }],
        weekdays: ['saturday', 'sunday'],
        days_of_month: ['1:10'],
        months: ['1:3'],
        years: ['2030:2050'],
      }],
    });
    // Keys in the order Alertmanager's structs have them, as upstream's file.
    expect(Object.keys((rendered.time_intervals as object[])[0]!)).toEqual(['times', 'weekdays', 'days_of_month', 'months', 'years']);
    expect(amtoolCheck([rendered])).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it.each(ACCEPTED)('writes $story in Alertmanager\'s normal form', ({ interval, expected }) => {
    expect(renderedInterval(interval)).toEqual(expected);
  });

  it('writes the name the caller gives and every interval of the set, in order', () => {
    const { rendered, findings } = render({ name: 'maintenance', timeIntervals: [{ weekdays: ['saturday'] }, { weekdays: ['sunday'], times: [{ startTime: '00:00', endTime: '04:00' }] }] });
    expect(findings.problems).toEqual([]);
    expect(rendered).toEqual({
      name: 'team-a/alerting/maintenance',
      time_intervals: [{ weekdays: ['saturday'] }, { times: [{ start_time: '00:00', end_time: '04:00' }], weekdays: ['sunday'] }],
    });
  });

  it('keeps its name when it has no intervals (an empty set, which never holds), where upstream loses the name', () => {
    for (const interval of [{ name: 'later' }, { name: 'later', timeIntervals: [] }]) {
      const { rendered, findings } = render(interval);
      expect(findings.problems).toEqual([]);
      expect(rendered).toEqual({ name: 'team-a/alerting/later', time_intervals: [] });
      expect(amtoolCheck([rendered]).code).toBe(0);
    }
  });

  it('is loaded by Alertmanager 0.35 in every accepted form (amtool check-config), a route muted by each', () => {
    const entries = [
      render(UPSTREAM_CASE).rendered,
      ...ACCEPTED.map(({ interval }, i) => ({ name: `team-a/alerting/accepted-${i}`, time_intervals: [renderedInterval(interval)] })),
    ];
    const result = amtoolCheck(entries);
    expect(result).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  describe('with a value upstream or Alertmanager refuses', () => {
    /** Each refusal: the interval, the exact path of the problem and what its message says. */
    const REFUSED: Array<{ story: string; interval: Interval; path: string; message: RegExp }> = [
      { story: 'a weekday that is not one', interval: { weekdays: ['monday', 'funday'] }, path: `${AT}.weekdays[1]`, message: /^"funday" is not a day of the week \(sunday … saturday, or a range like monday:friday\)$/ },
      { story: 'a weekday by number', interval: { weekdays: ['3'] }, path: `${AT}.weekdays[0]`, message: /"3" is not a day of the week/ },
      { story: 'a weekday abbreviated', interval: { weekdays: ['mon:fri'] }, path: `${AT}.weekdays[0]`, message: /"mon:fri" is not a day of the week/ },
      { story: 'a weekday range with three parts', interval: { weekdays: ['monday:tuesday:friday'] }, path: `${AT}.weekdays[0]`, message: /is not a day of the week/ },
      { story: 'a weekday range open at one end', interval: { weekdays: ['monday:'] }, path: `${AT}.weekdays[0]`, message: /"monday:" is not a day of the week/ },
      { story: 'an empty weekday', interval: { weekdays: [''] }, path: `${AT}.weekdays[0]`, message: /^"" is not a day of the week/ },
      { story: 'a weekday with spaces', interval: { weekdays: [' monday'] }, path: `${AT}.weekdays[0]`, message: /is not a day of the week/ },
      { story: 'a weekday range across the weekend', interval: { weekdays: ['friday:monday'] }, path: `${AT}.weekdays[0]`, message: /^"friday:monday" ends before it begins: the week runs from sunday to saturday/ },
      { story: 'a month that is not one', interval: { months: ['Januar'] }, path: `${AT}.months[0]`, message: /^"Januar" is not a month \(january … december or 1 … 12, or a range like january:march\)$/ },
      { story: 'month 13', interval: { months: ['13'] }, path: `${AT}.months[0]`, message: /"13" is not a month/ },
      { story: 'month 0', interval: { months: ['0:3'] }, path: `${AT}.months[0]`, message: /"0:3" is not a month/ },
      { story: 'a month with a leading zero', interval: { months: ['01'] }, path: `${AT}.months[0]`, message: /"01" is not a month/ },
      { story: 'a month range across the new year', interval: { months: ['November:February'] }, path: `${AT}.months[0]`, message: /^"November:February" ends before it begins/ },
      { story: 'a year outside 2000-2999', interval: { years: ['1999'] }, path: `${AT}.years[0]`, message: /^"1999" is not a year from 2000 to 2999/ },
      { story: 'a year range with junk after it', interval: { years: ['2030:2050x'] }, path: `${AT}.years[0]`, message: /"2030:2050x" is not a year/ },
      { story: 'a year range backwards', interval: { years: ['2050:2030'] }, path: `${AT}.years[0]`, message: /^"2050:2030" ends before it begins/ },
      { story: 'a time range without its end', interval: { times: [{ startTime: '08:00' }] }, path: `${AT}.times[0].endTime`, message: /needs both startTime and endTime/ },
      { story: 'a time range without its start', interval: { times: [{ startTime: '', endTime: '08:00' }] }, path: `${AT}.times[0].startTime`, message: /needs both startTime and endTime/ },
      { story: 'a time of day without its leading zero', interval: { times: [{ startTime: '8:00', endTime: '17:00' }] }, path: `${AT}.times[0].startTime`, message: /^"8:00" is not a time of day in HH:MM form/ },
      { story: 'a time of day past 24:00', interval: { times: [{ startTime: '08:00', endTime: '24:01' }] }, path: `${AT}.times[0].endTime`, message: /"24:01" is not a time of day/ },
      { story: 'a time range starting at 24:00', interval: { times: [{ startTime: '24:00', endTime: '24:00' }] }, path: `${AT}.times[0].startTime`, message: /^24:00 is the end of the day: it can only end a time range/ },
      { story: 'a time range across midnight', interval: { times: [{ startTime: '22:00', endTime: '06:00' }] }, path: `${AT}.times[0]`, message: /^startTime 22:00 is not before endTime 06:00; a range cannot cross midnight \(write two: 22:00 to 24:00 and 00:00 to 06:00\)$/ },
      { story: 'an empty time range', interval: { times: [{ startTime: '10:00', endTime: '10:00' }] }, path: `${AT}.times[0]`, message: /startTime 10:00 is not before endTime 10:00/ },
      { story: 'a day of the month without its end', interval: { daysOfMonth: [{ start: 5 }] }, path: `${AT}.daysOfMonth[0].end`, message: /needs both start and end/ },
      { story: 'day 0 of the month', interval: { daysOfMonth: [{ start: 0, end: 3 }] }, path: `${AT}.daysOfMonth[0].start`, message: /^0 is not a day of the month \(1 to 31, or -31 to -1 counting from its end\)$/ },
      { story: 'day 32 of the month', interval: { daysOfMonth: [{ start: 1, end: 32 }] }, path: `${AT}.daysOfMonth[0].end`, message: /^32 is not a day of the month/ },
      { story: 'a negative start with a positive end', interval: { daysOfMonth: [{ start: -1, end: 5 }] }, path: `${AT}.daysOfMonth[0]`, message: /^start -1 counts from the end of the month, so end must too/ },
      { story: 'a day range backwards', interval: { daysOfMonth: [{ start: 10, end: 1 }] }, path: `${AT}.daysOfMonth[0]`, message: /^end 1 is before start 10/ },
      { story: 'a day range empty in February', interval: { daysOfMonth: [{ start: 30, end: -1 }] }, path: `${AT}.daysOfMonth[0]`, message: /^end -1 is before start 30 \(in a 28-day month at least\)/ },
      { story: 'a negative day range backwards', interval: { daysOfMonth: [{ start: -1, end: -3 }] }, path: `${AT}.daysOfMonth[0]`, message: /end -3 is before start -1/ },
    ];

    it.each(REFUSED)('reports $story at its field path and leaves the value out', ({ interval, path, message }) => {
      const { rendered, findings } = render({ name: 'window', timeIntervals: [interval] });
      expect(findings.problems).toEqual([{ path, message: expect.stringMatching(message) }]);
      const written = (rendered.time_intervals as Array<Record<string, unknown>>)[0]!;
      const field = path.slice(AT.length + 1).replace(/\[.*$/, '');
      const key = { times: 'times', weekdays: 'weekdays', daysOfMonth: 'days_of_month', months: 'months', years: 'years' }[field]!;
      const kept = written[key] as unknown[] | undefined;
      const given = (interval as Record<string, unknown[]>)[field]!;
      expect(kept?.length ?? 0).toBe(given.length - 1);
    });

    it('reports every refused value of an interval, in different intervals and sets, each at its own path', () => {
      const findings = new Findings();
      render({ name: 'a', timeIntervals: [{ weekdays: ['monday'] }, { weekdays: ['saturday', 'someday'], months: ['smarch'] }] }, findings, 'spec.muteTimeIntervals[0]');
      render({ name: 'b', timeIntervals: [{ years: ['3000'] }] }, findings, 'spec.muteTimeIntervals[1]');
      expect(findings.problems.map((p) => p.path)).toEqual([
        'spec.muteTimeIntervals[0].timeIntervals[1].weekdays[1]',
        'spec.muteTimeIntervals[0].timeIntervals[1].months[0]',
        'spec.muteTimeIntervals[1].timeIntervals[0].years[0]',
      ]);
    });

    it('reports an empty name', () => {
      const { findings } = render({ name: '', timeIntervals: [{ weekdays: ['monday'] }] }, new Findings(), 'spec.muteTimeIntervals[2]');
      expect(findings.problems).toEqual([{ path: 'spec.muteTimeIntervals[2].name', message: 'a time interval needs a name for routes to refer to' }]);
    });

    it('reports a name used twice in the object on the second one (Alertmanager refuses duplicates in the whole file)', () => {
      const findings = new Findings();
      const object = {
        apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace: 'team-a', name: 'alerting' },
        spec: { muteTimeIntervals: [{ name: 'maintenance', timeIntervals: [{ weekdays: ['saturday'] }] }, { name: 'night', timeIntervals: [] }, { name: 'maintenance', timeIntervals: [{ weekdays: ['sunday'] }] }] },
      } as AlertmanagerConfig;
      const part = renderAlertmanagerConfig(object, { findings, secrets: new SecretStore([], []), confineTo: 'team-a', tlsAssets: {} });
      expect(findings.problems).toEqual([{
        path: 'spec.muteTimeIntervals[2].name',
        message: '"maintenance" is already the name of spec.muteTimeIntervals[0]; names must be unique in an AlertmanagerConfig',
      }]);
      // Written as is, the pair would be refused by Alertmanager for everyone.
      expect(amtoolCheck([part.timeIntervals[0]!, part.timeIntervals[2]!]).output).toMatch(/time interval "team-a\/alerting\/maintenance" is not unique/);
      // Another object may use the same name: its intervals are named after it.
      const other = renderAlertmanagerConfig({ ...object, metadata: { namespace: 'team-a', name: 'other' }, spec: { muteTimeIntervals: [{ name: 'maintenance', timeIntervals: [] }] } }, { findings: new Findings(), secrets: new SecretStore([], []), confineTo: 'team-a', tlsAssets: {} });
      expect(other.timeIntervals[0]?.name).toBe('team-a/other/maintenance');
    });

    it('accepts only ASCII letters in any case: look-alike letters are refused as upstream refuses them', () => {
      expect(renderedInterval({ weekdays: ['SUNDAY'], months: ['MARCH'] })).toEqual({ weekdays: ['sunday'], months: ['3'] });
      // U+017F (long s) folds to "s" in upstream's case-insensitive pattern but not in its parser; U+0130 (İ) in neither.
      expect(problemsOf({ weekdays: ['\u017funday', 'fr\u0130day'] }).map((p) => p.path)).toEqual([`${AT}.weekdays[0]`, `${AT}.weekdays[1]`]);
      // The fullwidth digit is a digit to some parsers, not to upstream's.
      expect(problemsOf({ months: ['\uff11'] }).map((p) => p.path)).toEqual([`${AT}.months[0]`]);
    });

    it('refuses a long value at once and shows only its beginning', () => {
      const long = `monday${':'.repeat(200_000)}x`;
      const started = performance.now();
      const problems = problemsOf({ weekdays: [long, 'a'.repeat(100_000)], months: [long], years: [long], times: [{ startTime: long, endTime: '10:00' }] });
      expect(performance.now() - started).toBeLessThan(10_000); // a guard for a loaded machine: this is microseconds of work; a backtracking pattern would take minutes
      expect(problems.map((p) => p.path)).toEqual([`${AT}.times[0].startTime`, `${AT}.weekdays[0]`, `${AT}.weekdays[1]`, `${AT}.months[0]`, `${AT}.years[0]`]);
      for (const problem of problems) expect(problem.message.length).toBeLessThan(400);
    });

    it('refuses values of the wrong type that an unchecked object could carry', () => {
      const interval = { weekdays: [1], months: [null], years: [2030], times: [{ startTime: 800, endTime: '09:00' }], daysOfMonth: [{ start: 1.5, end: '3' }] } as unknown as Interval;
      expect(problemsOf(interval).map((p) => p.path)).toEqual([
        `${AT}.times[0].startTime`, `${AT}.weekdays[0]`, `${AT}.daysOfMonth[0].start`, `${AT}.daysOfMonth[0].end`, `${AT}.months[0]`, `${AT}.years[0]`,
      ]);
    });

    it.each([
      { story: 'a weekday that is not one', raw: { weekdays: ['funday'] }, refusal: /funday is not a valid weekday/ },
      { story: 'a weekday by number', raw: { weekdays: ['3'] }, refusal: /3 is not a valid weekday/ },
      { story: 'month 13', raw: { months: ['13'] }, refusal: /13 is not a valid month/ },
      { story: 'a year range backwards', raw: { years: ['2050:2030'] }, refusal: /end year 2030 is before start year 2050/ },
      { story: 'a time range across midnight', raw: { times: [{ start_time: '22:00', end_time: '06:00' }] }, refusal: /start time cannot be equal or greater than end time/ },
      { story: 'a time range starting at 24:00', raw: { times: [{ start_time: '24:00', end_time: '24:00' }] }, refusal: /start time cannot be equal or greater than end time/ },
      { story: 'a time range without its end', raw: { times: [{ start_time: '08:00' }] }, refusal: /both start and end times must be provided/ },
      { story: 'a negative start with a positive end', raw: { days_of_month: ['-1:5'] }, refusal: /end day must be negative if start day is negative/ },
      { story: 'a day range empty in February', raw: { days_of_month: ['30:-1'] }, refusal: /end day -1 is always before start day 30/ },
      { story: 'day 0 of the month', raw: { days_of_month: ['0:3'] }, refusal: /0 is not a valid day of the month/ },
    ])('protects the shared file: Alertmanager would refuse $story too', ({ raw, refusal }) => {
      const result = amtoolCheckRaw(raw);
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(refusal);
    });

    it('refuses a weekday range across the weekend as upstream does, though Alertmanager 0.35 alone would wrap it', () => {
      expect(problemsOf({ weekdays: ['friday:monday'] }).map((p) => p.path)).toEqual([`${AT}.weekdays[0]`]);
      // What the message suggests instead, which every Alertmanager loads.
      const split = renderedInterval({ weekdays: ['friday:saturday', 'sunday:monday'] });
      expect(amtoolCheckRaw(split).code).toBe(0);
      expect(amtoolCheckRaw({ weekdays: ['friday:monday'] }).code).toBe(0);
    });
  });
});
