import { commandHelp, flagSet, parseCommandLine, programHelp, type CommandSpec } from './command-line.ts';
import { COMMANDS } from './commands.ts';

const SPEC: CommandSpec = {
  name: 'try',
  summary: 'a command for the tests',
  synopsis: 'try -f <file> [<kind> [<name>]]',
  description: 'Tries things.',
  flags: [
    { name: 'filename', short: 'f', value: '<file>', repeatable: true, help: 'a file' },
    { name: 'output', short: 'o', value: 'json|yaml', choices: ['json', 'yaml'], help: 'format' },
    { name: 'verbose', help: 'say more' },
  ],
  positionals: [{ name: 'kind', choices: ['a', 'b'] }, { name: 'name', optional: true }],
  examples: [{ comment: 'try a', args: 'try -f x a' }],
  exitStatus: '0.',
};

describe('reading a command line as kubectl does', () => {
  it.each([
    [['-f', 'x', 'a'], { filename: ['x'] }, ['a']],
    [['-f=x', '--filename', 'y', '--filename=z', '-fw', 'a'], { filename: ['x', 'y', 'z', 'w'] }, ['a']],
    [['a', 'n', '-o', 'json', '--verbose'], { output: ['json'], verbose: ['true'] }, ['a', 'n']],
    [['--verbose=false', 'b'], { verbose: ['false'] }, ['b']],
    [['--', 'a', '-f'], {}, ['a', '-f']],
  ])('%j', (argv, flags, positionals) => {
    const parsed = parseCommandLine(SPEC, argv);
    expect(parsed).toEqual({ kind: 'ok', line: { flags: new Map(Object.entries(flags)), positionals } });
  });

  it.each([
    [['a', '--frobnicate'], 'unknown argument "--frobnicate"'],
    [['a', '-f'], '-f needs a value'],
    [['a', '--filename='], '--filename needs a value'],
    [['a', '-o', 'xml'], '-o must be one of json, yaml, not "xml"'],
    [['a', '-o', 'json', '--output=yaml'], 'only one -o/--output may be given'],
    [['a', '--verbose=maybe'], '--verbose takes no value, or true/false'],
    [[], 'missing <kind>'],
    [['c'], '<kind> must be one of a, b, not "c"'],
    [['a', 'n', 'extra'], 'unexpected argument "extra"'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(parseCommandLine(SPEC, argv)).toEqual({ kind: 'error', message });
  });

  it('answers -h and --help wherever they are', () => {
    expect(parseCommandLine(SPEC, ['a', '-h'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(SPEC, ['--help', '--frobnicate'])).toEqual({ kind: 'help' });
  });

  it('reads a boolean flag given as =false as not set', () => {
    const parsed = parseCommandLine(SPEC, ['a', '--verbose=false']);
    expect(parsed.kind === 'ok' && flagSet(parsed.line, 'verbose')).toBe(false);
  });
});

describe('--help of every command', () => {
  it.each(COMMANDS.filter((command) => !command.ownHelp).map((command) => [command.spec.name, command.spec] as const))('%s has a synopsis, every flag, an example and its exit status', (_name, spec) => {
    const help = commandHelp(spec, 'promop');
    expect(help).toMatch(new RegExp(`^Usage: promop ${spec.name}`));
    for (const flag of spec.flags) expect(help).toContain(`--${flag.name}`);
    expect(spec.examples.length).toBeGreaterThan(0);
    for (const example of spec.examples) {
      expect(example.args.startsWith(`${spec.name} `) || example.args === spec.name).toBe(true);
      expect(help).toContain(`  promop ${example.args}\n`);
    }
    expect(help).toContain('Exit status: ');
  });

  it('and the program lists every command, spelt as the kubectl plugin when run as one', () => {
    const help = programHelp(COMMANDS.map((command) => command.spec), 'kubectl promop');
    expect(help).toMatch(/^Usage: kubectl promop <command>/);
    for (const command of COMMANDS) expect(help).toContain(`  ${command.spec.name} `);
  });
});
