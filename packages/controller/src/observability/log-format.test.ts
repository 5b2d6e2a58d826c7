import { createLogger, logfmtLine } from './log-format.ts';

describe('promop run --log-format', () => {
  it('json: pino\'s own lines', () => {
    const lines: string[] = [];
    createLogger({ level: 'info', format: 'json', write: (line) => lines.push(line) }).info({ prometheus: 'monitoring/main' }, 'reconciled');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 30, prometheus: 'monitoring/main', msg: 'reconciled' });
  });

  it('logfmt: level name, RFC 3339 time, message, then the fields; values with spaces or quotes quoted', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', format: 'logfmt', write: (line) => lines.push(line) });
    log.warn({ prometheus: 'monitoring/main', retryInMs: 1000, err: 'HTTP 500 "boom"', shards: [0, 1] }, 'watch failed; resuming');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^level=warn ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z msg="watch failed; resuming" prometheus=monitoring\/main retryInMs=1000 err="HTTP 500 \\"boom\\"" shards=\[0,1\]\n$/);
  });

  it('logfmt keeps one line per record even when a value has a newline', () => {
    expect(logfmtLine(JSON.stringify({ level: 50, time: 0, msg: 'a\nb', empty: '' }))).toBe('level=error ts=1970-01-01T00:00:00.000Z msg="a\\nb" empty=""\n');
  });
});

describe('promop run --log-level', () => {
  it('drops what is below the level; none drops everything; all keeps trace', () => {
    const lines: string[] = [];
    const write = (line: string) => lines.push(line);
    const warn = createLogger({ level: 'warn', format: 'json', write });
    warn.info('not shown');
    warn.error('shown');
    createLogger({ level: 'none', format: 'json', write }).fatal('not shown either');
    createLogger({ level: 'all', format: 'json', write }).trace('traced');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['shown', 'traced']);
  });
});
