/**
 * One entry of an AlertmanagerConfig's `spec.muteTimeIntervals` → a named set of time intervals in Alertmanager's
 * own configuration format (`{ name, time_intervals: [{ times, weekdays, days_of_month, months, years }] }`).
 *
 * prometheus-operator v0.93 parses each value into Alertmanager's timeinterval types and marshals them again, so
 * its output is normalised; promop writes the same normal form:
 * - weekdays as lowercase names (`Monday:FRIDAY` → `monday:friday`), months as numbers (`January:March` → `1:3`);
 * - a range whose first and last member are the same as that one member (`monday:monday` → `monday`, `5:5` → `5`);
 * - days of the month (`{start, end}` in the object) as strings `"start:end"`, years as given (`2030:2050`);
 * - `times` as `{start_time, end_time}`, HH:MM; lists left empty are left out.
 *
 * Every check prometheus-operator's admission validation makes, and every value Alertmanager's loader refuses,
 * becomes a problem with its field path instead of a configuration that Alertmanager refuses for every team.
 * The CRD cannot check weekdays and months (upstream's patterns are case-insensitive, which the validators'
 * JavaScript patterns cannot express), so they are checked here, ASCII letters in any case, as upstream.
 *
 * The values are a tenant's input: no regular expression here can backtrack, and a value longer than any valid
 * one is refused before it is split or lowercased.
 */
import type { MuteTimeInterval } from '@promop/crds';
import { shortened } from '@promop/prometheus-lang';
import type { Findings } from '../findings.ts';

/** What rendering one named set of intervals needs. */
export interface TimeIntervalContext {
  /** The field path of this entry, e.g. `spec.muteTimeIntervals[2]`, for findings. */
  path: string;
  findings: Findings;
  /** The name as written in the generated configuration (the caller computes `<namespace>/<object>/<name>`). */
  name: string;
}

type Interval = NonNullable<MuteTimeInterval['timeIntervals']>[number];
type TimeRange = NonNullable<Interval['times']>[number];
type DayOfMonthRange = NonNullable<Interval['daysOfMonth']>[number];

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** Longer than any valid range (`wednesday:wednesday`, `september:september`): refused without further work. */
const MAX_RANGE_LENGTH = 24;
/** HH:MM from 00:00 to 23:59, or 24:00 (Alertmanager's pattern): fixed length, no repetition, cannot backtrack. */
const TIME_OF_DAY = /^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;
const END_OF_DAY = 24 * 60;

/**
 * The named set of intervals as Alertmanager's configuration writes it. Problems go to `context.findings`; the
 * caller rejects the AlertmanagerConfig when there are any (the returned set then lacks the values that had them).
 * Names unique within the object are the caller's check (it sees every entry).
 */
export function renderTimeInterval(interval: MuteTimeInterval, context: { path: string; findings: Findings; name: string }): Record<string, unknown> {
  const { path, findings } = context;
  if (typeof interval.name !== 'string' || interval.name === '') findings.problem(`${path}.name`, 'a time interval needs a name for routes to refer to');
  const intervals = listOf(interval.timeIntervals).map((ti, i) => renderInterval(ti, `${path}.timeIntervals[${i}]`, findings));
  return { name: context.name, time_intervals: intervals };
}

function renderInterval(interval: Interval, path: string, findings: Findings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const times = collect(interval.times, `${path}.times`, (range, at) => timeRange(range, at, findings));
  if (times.length > 0) out.times = times;
  const weekdays = collect(interval.weekdays, `${path}.weekdays`, (value, at) => namedRange(value, at, findings, WEEKDAY));
  if (weekdays.length > 0) out.weekdays = weekdays;
  const days = collect(interval.daysOfMonth, `${path}.daysOfMonth`, (range, at) => dayOfMonthRange(range, at, findings));
  if (days.length > 0) out.days_of_month = days;
  const months = collect(interval.months, `${path}.months`, (value, at) => namedRange(value, at, findings, MONTH));
  if (months.length > 0) out.months = months;
  const years = collect(interval.years, `${path}.years`, (value, at) => namedRange(value, at, findings, YEAR));
  if (years.length > 0) out.years = years;
  return out;
}

/** `{start_time, end_time}`: both required, HH:MM, 24:00 only as the end, the start before the end. */
function timeRange(range: TimeRange, path: string, findings: Findings): Record<string, string> | undefined {
  const start = timeOfDay(range?.startTime, `${path}.startTime`, findings);
  const end = timeOfDay(range?.endTime, `${path}.endTime`, findings);
  if (start === undefined || end === undefined) return undefined;
  if (start.minutes === END_OF_DAY) {
    findings.problem(`${path}.startTime`, '24:00 is the end of the day: it can only end a time range (use 00:00 to start at midnight)');
    return undefined;
  }
  if (start.minutes >= end.minutes) {
    findings.problem(path, `startTime ${start.text} is not before endTime ${end.text}; a range cannot cross midnight (write two: ${start.text} to 24:00 and 00:00 to ${end.text})`);
    return undefined;
  }
  return { start_time: start.text, end_time: end.text };
}

function timeOfDay(value: unknown, path: string, findings: Findings): { text: string; minutes: number } | undefined {
  if (value === undefined || value === '') {
    findings.problem(path, 'a time range needs both startTime and endTime (HH:MM, e.g. 08:00)');
    return undefined;
  }
  if (typeof value !== 'string' || value.length !== 5 || !TIME_OF_DAY.test(value)) {
    findings.problem(path, `${shown(value)} is not a time of day in HH:MM form (00:00 to 23:59, or 24:00 to end a range)`);
    return undefined;
  }
  return { text: value, minutes: Number(value.slice(0, 2)) * 60 + Number(value.slice(3)) };
}

/**
 * A day of the month `{start, end}`: both required, 1…31 or -31…-1 (from the month's end), a negative start only
 * with a negative end, and not a range that is empty in every month (checked, as Alertmanager does, for 28 days).
 */
function dayOfMonthRange(range: DayOfMonthRange, path: string, findings: Findings): string | undefined {
  const start = dayOfMonth(range?.start, `${path}.start`, findings);
  const end = dayOfMonth(range?.end, `${path}.end`, findings);
  if (start === undefined || end === undefined) return undefined;
  if (start < 0 && end > 0) {
    findings.problem(path, `start ${start} counts from the end of the month, so end must too (a negative number, -1 being the last day), not ${end}`);
    return undefined;
  }
  const startIn28 = start < 0 ? 28 + start : start;
  const endIn28 = end < 0 ? 28 + end : end;
  if (startIn28 > endIn28) {
    findings.problem(path, `end ${end} is before start ${start} (in a 28-day month at least), so the range would hold on no day of it`);
    return undefined;
  }
  return start === end ? String(start) : `${start}:${end}`;
}

function dayOfMonth(value: unknown, path: string, findings: Findings): number | undefined {
  if (value === undefined) {
    findings.problem(path, 'a day-of-month range needs both start and end (the same day for a single one)');
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value === 0 || value < -31 || value > 31) {
    findings.problem(path, `${shown(value)} is not a day of the month (1 to 31, or -31 to -1 counting from its end)`);
    return undefined;
  }
  return value;
}

/** How one kind of `first[:last]` range reads its members and writes them back. */
interface RangeKind {
  /** The member's number, or undefined when `text` (ASCII-lowercased) is none. */
  member(text: string): number | undefined;
  /** The member as Alertmanager writes it back. */
  write(n: number): string;
  /** Why a value is refused, after its quoted text. */
  invalid: string;
  /** Why a reversed range is refused, after its quoted text. */
  reversed: string;
}

const WEEKDAY: RangeKind = {
  member: (text) => indexOrUndefined(WEEKDAYS.indexOf(text)),
  write: (n) => WEEKDAYS[n] ?? String(n),
  invalid: 'is not a day of the week (sunday … saturday, or a range like monday:friday)',
  reversed: 'ends before it begins: the week runs from sunday to saturday (for friday:monday write friday:saturday and sunday:monday)',
};

const MONTH: RangeKind = {
  member: (text) => {
    const named = MONTHS.indexOf(text);
    if (named >= 0) return named + 1;
    return isDecimal(text, 2) && text[0] !== '0' && Number(text) <= 12 ? Number(text) : undefined;
  },
  write: (n) => String(n),
  invalid: 'is not a month (january … december or 1 … 12, or a range like january:march)',
  reversed: 'ends before it begins: write the earlier month first (for november:february write november:december and january:february)',
};

const YEAR: RangeKind = {
  member: (text) => (isDecimal(text, 4) && text.length === 4 && text[0] === '2' ? Number(text) : undefined),
  write: (n) => String(n),
  invalid: 'is not a year from 2000 to 2999 (e.g. 2027, or a range like 2027:2029)',
  reversed: 'ends before it begins: write the earlier year first',
};

/** A `first` or `first:last` value of `kind`, written back as Alertmanager marshals it; undefined when refused. */
function namedRange(value: unknown, path: string, findings: Findings, kind: RangeKind): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RANGE_LENGTH) {
    findings.problem(path, `${shown(value)} ${kind.invalid}`);
    return undefined;
  }
  const text = asciiLowercase(value);
  const colon = text.indexOf(':');
  const firstText = colon < 0 ? text : text.slice(0, colon);
  const lastText = colon < 0 ? text : text.slice(colon + 1);
  const first = kind.member(firstText);
  const last = kind.member(lastText); // a second colon leaves one in lastText, which no member has
  if (first === undefined || last === undefined) {
    findings.problem(path, `${shown(value)} ${kind.invalid}`);
    return undefined;
  }
  if (first > last) {
    findings.problem(path, `${shown(value)} ${kind.reversed}`);
    return undefined;
  }
  return first === last ? kind.write(first) : `${kind.write(first)}:${kind.write(last)}`;
}

/** Renders each item of a list, dropping those refused. */
function collect<T, R>(items: readonly T[] | undefined, path: string, render: (item: T, at: string) => R | undefined): R[] {
  const out: R[] = [];
  listOf(items).forEach((item, i) => {
    const rendered = render(item, `${path}[${i}]`);
    if (rendered !== undefined) out.push(rendered);
  });
  return out;
}

function listOf<T>(items: readonly T[] | undefined): readonly T[] {
  return Array.isArray(items) ? items : [];
}

function indexOrUndefined(index: number): number | undefined {
  return index >= 0 ? index : undefined;
}

/** Whether `text` is 1 to `maxDigits` ASCII digits. */
function isDecimal(text: string, maxDigits: number): boolean {
  if (text.length === 0 || text.length > maxDigits) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * `text` with A-Z lowercased and nothing else changed. For these names that is all upstream accepts: its CRD
 * patterns fold case as Go's regexp does, and the one other letter they fold (`ſ`, long s, for `s`) fails its
 * parser afterwards.
 */
function asciiLowercase(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i];
  }
  return out;
}

/** A team's value as a message quotes it: JSON, cut when long. */
function shown(value: unknown): string {
  return JSON.stringify(typeof value === 'string' ? shortened(value) : value ?? null) ?? String(value);
}
