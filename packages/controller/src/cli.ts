#!/usr/bin/env node
/** The `promop` command: dispatches to a subcommand module and exits with its status. */
import { runRenderCommand } from './render-command.ts';
import { runOperatorCommand } from './run-command.ts';

type Command = (argv: readonly string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }) => Promise<number>;

const COMMANDS: Record<string, Command> = { render: runRenderCommand, run: runOperatorCommand };
const USAGE = `Usage: promop <command> [arguments]\n\nCommands:\n  render   render Prometheus configuration from local manifests (promop render --help)\n  run      run the operator against a cluster (promop run --help)\n`;

const [name, ...argv] = process.argv.slice(2);
const io = { stdout: (text: string) => void process.stdout.write(text), stderr: (text: string) => void process.stderr.write(text) };
const command = name === undefined ? undefined : COMMANDS[name];
if (name === '-h' || name === '--help') {
  io.stdout(USAGE);
} else if (!command) {
  io.stderr(name === undefined ? USAGE : `promop: unknown command "${name}"\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  process.exitCode = await command(argv, io);
}
