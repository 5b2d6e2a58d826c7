/**
 * The command line of every `promop` subcommand, described once as data (CommandSpec): the parser, `--help` and the
 * shell completion scripts are all made from the same description, so a flag cannot be accepted without being
 * documented or completed. Flags are read the way kubectl (pflag) reads them: `-f x`, `-f=x`, `-fx`,
 * `--filename x`, `--filename=x`, and `--` ends the flags. Importing this module loads nothing else: `--help`
 * must answer before any subcommand's code is loaded.
 */

/** What a shell should offer for a flag's value or a positional argument. */
export type CompletionKind = 'file' | 'directory' | 'namespace' | 'context' | 'resource-kind' | 'none';

/** One flag of a command. */
export interface FlagSpec {
  /** Long name without the dashes: `filename`. */
  name: string;
  /** One-letter short name without the dash: `f`. */
  short?: string;
  /** Placeholder of the value (`<file|dir>`); absent for a boolean flag. */
  value?: string;
  /** The only values accepted (and completed). */
  choices?: readonly string[];
  /** Given more than once, every value counts; otherwise a second one is a usage error. */
  repeatable?: boolean;
  /** What completion offers for the value. */
  complete?: CompletionKind;
  /** One line for `--help`. */
  help: string;
}

/** A positional argument. */
export interface PositionalSpec {
  name: string;
  /** Fixed values (a resource kind); otherwise anything. */
  choices?: readonly string[];
  complete?: CompletionKind;
  optional?: boolean;
}

/** One example in `--help`. */
export interface ExampleSpec {
  /** What it does, one line. */
  comment: string;
  /** The arguments after the program name, e.g. `render -f manifests/`. */
  args: string;
}

/** A subcommand, described once. */
export interface CommandSpec {
  name: string;
  /** One line for `promop --help`. */
  summary: string;
  /**
   * The synopsis after the program name, e.g. `render -f <file|dir> [-f <file|dir>...] [-o <dir>]`; one line per
   * form of the command when it has several.
   */
  synopsis: string;
  /** Paragraphs explaining what the command does. */
  description: string;
  flags: readonly FlagSpec[];
  positionals: readonly PositionalSpec[];
  examples: readonly ExampleSpec[];
  /** What each exit status means. */
  exitStatus: string;
}

/** Flags and positionals as given. */
export interface ParsedCommandLine {
  /** Long flag name → the values given (a boolean flag given once holds `['true']`). */
  flags: Map<string, string[]>;
  positionals: string[];
}

/** The parse, a usage error (a sentence), or a request for help. */
export type CommandLineResult = { kind: 'ok'; line: ParsedCommandLine } | { kind: 'help' } | { kind: 'error'; message: string };

/** The `-h/--help` flag every command has. */
export const HELP_FLAG: FlagSpec = { name: 'help', short: 'h', help: 'show this help' };

/** Parses `argv` (the arguments after the command name) against `spec`; never throws. */
export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): CommandLineResult {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  const byLong = new Map(spec.flags.map((flag) => [flag.name, flag]));
  const byShort = new Map(spec.flags.filter((flag) => flag.short !== undefined).map((flag) => [flag.short!, flag]));
  let onlyPositionals = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (onlyPositionals || argument === '-' || !argument.startsWith('-')) {
      positionals.push(argument);
      continue;
    }
    if (argument === '--') {
      onlyPositionals = true;
      continue;
    }
    if (argument === '-h' || argument === '--help') return { kind: 'help' };
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(argument);
    // A short flag: `-f`, `-f=x` or `-fx` (the rest of the word is the value).
    const short = long ? undefined : /^-([^-])(=?)(.*)$/s.exec(argument);
    const flag = long ? byLong.get(long[1]!) : byShort.get(short?.[1] ?? '');
    const typed = long ? `--${long[1]}` : `-${short?.[1] ?? ''}`;
    if (!flag) return { kind: 'error', message: `unknown argument "${argument}"` };
    let value: string | undefined;
    if (long) value = long[2];
    else if (short && (short[2] === '=' || short[3] !== '')) value = short[3];
    if (flag.value === undefined) {
      if (value !== undefined && value !== 'true' && value !== 'false') return { kind: 'error', message: `${typed} takes no value, or true/false` };
      value ??= 'true';
    } else {
      value ??= argv[++index];
      if (value === undefined || value === '') return { kind: 'error', message: `${typed} needs a value` };
      if (flag.choices && !flag.choices.includes(value)) {
        return { kind: 'error', message: `${typed} must be one of ${flag.choices.join(', ')}, not "${value}"` };
      }
    }
    const values = flags.get(flag.name) ?? [];
    if (values.length > 0 && !flag.repeatable) return { kind: 'error', message: `only one ${flagNames(flag)} may be given` };
    flags.set(flag.name, [...values, value]);
  }
  const required = spec.positionals.filter((positional) => !positional.optional).length;
  if (positionals.length > spec.positionals.length) {
    const extra = positionals[spec.positionals.length]!;
    return { kind: 'error', message: spec.positionals.length === 0 ? `unknown argument "${extra}"` : `unexpected argument "${extra}"` };
  }
  if (positionals.length < required) {
    const missing = spec.positionals.slice(positionals.length).filter((positional) => !positional.optional).map((positional) => positional.name);
    return { kind: 'error', message: `missing ${missing.map((name) => `<${name}>`).join(' ')}` };
  }
  for (const [index, positional] of positionals.entries()) {
    const choices = spec.positionals[index]!.choices;
    if (choices && !choices.includes(positional)) return { kind: 'error', message: `<${spec.positionals[index]!.name}> must be one of ${choices.join(', ')}, not "${positional}"` };
  }
  return { kind: 'ok', line: { flags, positionals } };
}

/** The value of a flag given at most once, or undefined. */
export function flagValue(line: ParsedCommandLine, name: string): string | undefined {
  return line.flags.get(name)?.[0];
}

/** Whether a boolean flag was given (and not as `=false`). */
export function flagSet(line: ParsedCommandLine, name: string): boolean {
  const values = line.flags.get(name);
  return values !== undefined && values[values.length - 1] !== 'false';
}

/** `-f/--filename` or `--filename`. */
export function flagNames(flag: FlagSpec): string {
  return flag.short ? `-${flag.short}/--${flag.name}` : `--${flag.name}`;
}

/** The `--help` text of a command; `program` is `promop` or `kubectl promop`. */
export function commandHelp(spec: CommandSpec, program: string): string {
  const flags = [...spec.flags, HELP_FLAG];
  const left = flags.map((flag) => `${flag.short ? `-${flag.short}, ` : '    '}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`);
  const width = Math.max(...left.map((text) => text.length)) + 3;
  const flagLines = flags.flatMap((flag, index) => {
    const [first, ...rest] = flag.help.split('\n');
    return [`  ${left[index]!.padEnd(width)}${first}`, ...rest.map((line) => `  ${' '.repeat(width)}${line}`)];
  });
  const examples = spec.examples.flatMap((example) => [`  # ${example.comment}`, `  ${program} ${example.args}`, '']);
  const [firstForm, ...otherForms] = spec.synopsis.split('\n');
  return [
    `Usage: ${program} ${firstForm}`,
    ...otherForms.map((form) => `       ${program} ${form}`),
    '',
    spec.description,
    '',
    'Flags:',
    ...flagLines,
    '',
    'Examples:',
    ...examples,
    `Exit status: ${spec.exitStatus}`,
    '',
  ].join('\n');
}

/** The `promop --help` text: every command with its summary. */
export function programHelp(specs: readonly CommandSpec[], program: string): string {
  const width = Math.max(...specs.map((spec) => spec.name.length)) + 3;
  return [
    `Usage: ${program} <command> [arguments]`,
    '',
    'promop renders, explains and diffs the Prometheus configuration promop generates from Prometheus,',
    'PrometheusAgent, ServiceMonitor, PodMonitor, Probe, ScrapeConfig and PrometheusRule objects, and runs',
    'the operator.',
    '',
    'Commands:',
    ...specs.map((spec) => `  ${spec.name.padEnd(width)}${spec.summary}`),
    '',
    `Run "${program} <command> --help" for a command's flags and examples.`,
    '',
  ].join('\n');
}
