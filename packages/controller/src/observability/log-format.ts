/**
 * promop's logger as `promop run --log-level` and `--log-format` ask for. JSON is pino's own line format; logfmt
 * (`level=info ts=... msg="..." key=value`, what prometheus-operator and most Go programs print by default) is
 * made from pino's JSON line by a small destination, so every logger call site stays the same.
 *
 * Levels are prometheus-operator's: all, debug, info, warn, error, none (all is pino's trace, none its silent).
 */
import { pino, type DestinationStream, type Logger } from 'pino';

/** The values `--log-level` accepts. */
export const LOG_LEVELS = ['all', 'debug', 'info', 'warn', 'error', 'none'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The values `--log-format` accepts. */
export const LOG_FORMATS = ['json', 'logfmt'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const PINO_LEVEL: Record<LogLevel, string> = { all: 'trace', debug: 'debug', info: 'info', warn: 'warn', error: 'error', none: 'silent' };
const LEVEL_NAME: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** A logger at `level` writing `format` lines to `write` (default: standard output). */
export function createLogger(options: { level: LogLevel; format: LogFormat; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const destination: DestinationStream = options.format === 'logfmt'
    ? { write: (line: string) => write(logfmtLine(line)) }
    : { write };
  return pino({ level: PINO_LEVEL[options.level] }, destination);
}

/**
 * One pino JSON line as one logfmt line: `level` (a name), `ts` (RFC 3339), `msg`, then the other fields in their
 * order; nested values as JSON. A line that is not JSON is passed through unchanged.
 */
export function logfmtLine(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { level, time, msg, pid: _pid, hostname: _hostname, ...rest } = record;
  const pairs: [string, unknown][] = [
    ['level', typeof level === 'number' ? (LEVEL_NAME[level] ?? String(level)) : level],
    ['ts', typeof time === 'number' ? new Date(time).toISOString() : time],
    ...(msg === undefined ? [] : [['msg', msg] as [string, unknown]]),
    ...Object.entries(rest),
  ];
  return `${pairs.filter(([, value]) => value !== undefined).map(([key, value]) => `${logfmtKey(key)}=${logfmtValue(value)}`).join(' ')}\n`;
}

/** Keys are bare words: anything else (a space, '=', a quote) becomes '_'. */
function logfmtKey(key: string): string {
  return key.replace(/[^\w.\-/]/g, '_') || '_';
}

/** Strings with a space, '=', a quote or a control character are quoted (JSON escaping); others go bare. */
function logfmtValue(value: unknown): string {
  const text = typeof value === 'string' ? value : value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text === '' || /[\s"=\\\u0000-\u001f\u007f]/.test(text) ? JSON.stringify(text) : text;
}
