#!/usr/bin/env node
/**
 * The `promop` command (also installed as `kubectl-promop`, so `kubectl promop ...` runs it as a kubectl plugin):
 * answers `--help` from the command descriptions alone, then imports only the code of the command asked for and
 * exits with its status. Every import below is dynamic on purpose: a static one would be loaded before the compile
 * cache is enabled, and for every command.
 */
import { enableCompileCache } from 'node:module';
import { basename } from 'node:path';

const [name, ...argv] = process.argv.slice(2);
// Node keeps the compiled code of every module it loads (and, for .ts sources, the stripped text) in a cache
// directory keyed by content, so the second start of a command skips most parsing. Not for `run`: the operator
// runs in a pod with a read-only root filesystem and starts once.
if (name !== 'run') enableCompileCache?.();

const { COMMANDS, commandNamed } = await import('./cli/commands.ts');
const { commandHelp, programHelp } = await import('./cli/command-line.ts');

// Installed as kubectl-promop and started by kubectl, the command is spelt `kubectl promop` in messages; as
// kubectl_complete-promop, kubectl asks it for completions of `kubectl promop ...` (kubectl 1.26+).
const invokedAs = basename(process.argv[1] ?? '').replace(/\.[cm]?[jt]s$/, '');
const program = invokedAs === 'kubectl-promop' ? 'kubectl promop' : 'promop';
const io = { stdout: (text: string) => void process.stdout.write(text), stderr: (text: string) => void process.stderr.write(text) };
const entry = name === undefined ? undefined : commandNamed(name);
const wantsHelp = argv.includes('-h') || argv.includes('--help');

if (invokedAs === 'kubectl_complete-promop' || name === '__complete') {
  const { runCompleteRequest } = await import('./cli/completion.ts');
  process.exitCode = await runCompleteRequest(invokedAs === 'kubectl_complete-promop' ? process.argv.slice(2) : argv, io);
} else if (name === '-h' || name === '--help' || name === 'help') {
  const topic = name === 'help' && argv[0] !== undefined ? commandNamed(argv[0]) : undefined;
  io.stdout(topic && !topic.ownHelp ? commandHelp(topic.spec, program) : programHelp(COMMANDS.map((command) => command.spec), program));
} else if (!entry) {
  const usage = programHelp(COMMANDS.map((command) => command.spec), program);
  io.stderr(name === undefined ? usage : `${program}: unknown command "${name}"\n\n${usage}`);
  process.exitCode = 2;
} else if (wantsHelp && !entry.ownHelp && argv.indexOf('--') === -1) {
  io.stdout(commandHelp(entry.spec, program));
} else {
  const run = await entry.load();
  process.exitCode = await run(argv, io, program);
}
