/**
 * Shell completion, made from the command descriptions (commands.ts) so a flag cannot exist without being
 * completed. The shell scripts only ask `promop __complete <words...>` what to offer, in cobra's protocol (one
 * candidate per line, `candidate<TAB>description` allowed, then `:<directive>`); kubectl asks the same of the
 * plugin's `kubectl_complete-promop` command (kubectl 1.26+), which is this program under another name. Namespaces,
 * contexts and object names are read from the cluster and the kubeconfig the command line names, as kubectl does.
 */
import { readFile } from 'node:fs/promises';
import type { CommandSpec, CompletionKind, FlagSpec } from './command-line.ts';
import { KINDS, kindNamed } from '@promop/crds/kinds';
import { COMMANDS, EXPLAIN_KINDS, commandNamed, specOf, type CommandIo } from './commands.ts';

/** Cobra's ShellCompDirective bits. */
export const DIRECTIVE = { default: 0, error: 1, noSpace: 2, noFileComp: 4, filterDirs: 16 } as const;

/** What to offer for the last word of `words` (the words after the program name; the last one may be empty). */
export async function complete(words: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ candidates: string[]; directive: number }> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const none = { candidates: [], directive: DIRECTIVE.noFileComp };
  if (before.length === 0) {
    return { candidates: COMMANDS.map((command) => `${command.spec.name}\t${command.spec.summary}`).filter((line) => line.startsWith(current)), directive: DIRECTIVE.noFileComp };
  }
  const entry = commandNamed(before[0]!);
  if (!entry) return none;
  const spec = entry.ownHelp ? await withFlagsFromHelp(entry.spec) : entry.spec;
  const args = before.slice(1);
  const previous = args[args.length - 1];
  const valueOf = previous === undefined ? undefined : flagFor(spec, previous);
  if (valueOf?.value !== undefined && !previous!.includes('=')) return completeValue(valueOf.choices, valueOf.complete, current, args, env);
  if (current.startsWith('-')) {
    const flags = [...spec.flags, { name: 'help', short: 'h', help: 'show the help' } as FlagSpec];
    return { candidates: flags.map((flag) => `--${flag.name}\t${flag.help.split('\n')[0]}`).filter((line) => line.startsWith(current)), directive: DIRECTIVE.noFileComp };
  }
  const positionals = positionalsOf(spec, args);
  const positional = spec.positionals[positionals.length];
  if (!positional) return none;
  if (spec.name === 'explain' && positional.name === 'name') return completeValue(undefined, 'none', current, args, env, positionals[0]);
  const choices = positional.complete === 'resource-kind' ? EXPLAIN_KINDS.map((kind) => kind.toLowerCase()) : positional.choices;
  return completeValue(choices, positional.complete, current, args, env);
}

/** Runs `promop completion bash|zsh`. */
export async function runCompletionCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const { commandHelp, parseCommandLine } = await import('./command-line.ts');
  const spec = specOf('completion');
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(spec, program));
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr(`${program} completion: ${parsed.message}\n\n${commandHelp(spec, program)}`);
    return 2;
  }
  io.stdout(parsed.line.positionals[0] === 'zsh' ? zshScript() : bashScript());
  return 0;
}

/** Runs the hidden `promop __complete <words...>` (and `kubectl_complete-promop <words...>`). */
export async function runCompleteRequest(argv: readonly string[], io: CommandIo): Promise<number> {
  const { candidates, directive } = await complete(argv.length === 0 ? [''] : argv);
  io.stdout(`${candidates.map((candidate) => `${candidate}\n`).join('')}:${directive}\n`);
  return 0;
}

/** The flag `word` names (`-n`, `--namespace`), or undefined. */
function flagFor(spec: CommandSpec, word: string): FlagSpec | undefined {
  const long = /^--([^=]+)/.exec(word);
  if (long) return spec.flags.find((flag) => flag.name === long[1]);
  const short = /^-([^-])$/.exec(word);
  return short ? spec.flags.find((flag) => flag.short === short[1]) : undefined;
}

/** The positional arguments among `args` (flags and their values left out). */
function positionalsOf(spec: CommandSpec, args: readonly string[]): string[] {
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (!word.startsWith('-') || word === '-') positionals.push(word);
    else if (flagFor(spec, word)?.value !== undefined && !word.includes('=')) index++;
  }
  return positionals;
}

async function completeValue(
  choices: readonly string[] | undefined,
  kind: CompletionKind | undefined,
  current: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  explainKind?: string,
): Promise<{ candidates: string[]; directive: number }> {
  if (choices) return { candidates: choices.filter((choice) => choice.startsWith(current)), directive: DIRECTIVE.noFileComp };
  if (kind === 'file') return { candidates: [], directive: DIRECTIVE.default };
  if (kind === 'directory') return { candidates: [], directive: DIRECTIVE.filterDirs };
  try {
    if (kind === 'context') return { candidates: (await contextNames(args, env)).filter((name) => name.startsWith(current)), directive: DIRECTIVE.noFileComp };
    if (kind === 'namespace') return { candidates: (await clusterNames(args, () => '/api/v1/namespaces')).filter((name) => name.startsWith(current)), directive: DIRECTIVE.noFileComp };
    if (explainKind !== undefined) {
      const [kindText, inline] = explainKind.split('/', 2);
      if (inline !== undefined) return { candidates: [], directive: DIRECTIVE.noFileComp };
      const { version, plural } = KINDS[kindNamed(kindText ?? '') ?? 'Prometheus'];
      const path = (contextNamespace: string) => `/apis/monitoring.coreos.com/${version}/namespaces/${encodeURIComponent(namespaceFlag(args) ?? contextNamespace)}/${plural}`;
      return { candidates: (await clusterNames(args, path)).filter((name) => name.startsWith(current)), directive: DIRECTIVE.noFileComp };
    }
  } catch {
    // No cluster, no kubeconfig: nothing to offer (completion never prints an error into the command line).
  }
  return { candidates: [], directive: DIRECTIVE.noFileComp };
}

function flagIn(args: readonly string[], name: string, short?: string): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (word === `--${name}` || (short && word === `-${short}`)) return args[index + 1];
    if (word.startsWith(`--${name}=`)) return word.slice(name.length + 3);
  }
  return undefined;
}

function namespaceFlag(args: readonly string[]): string | undefined {
  return flagIn(args, 'namespace', 'n');
}

/** The names of the objects of a list path (given the context's namespace), in the cluster the words' --kubeconfig/--context name. */
async function clusterNames(args: readonly string[], path: (contextNamespace: string) => string): Promise<string[]> {
  const { loadClusterConnection } = await import('../kube/kubeconfig.ts');
  const { KubeReader } = await import('./kube-reader.ts');
  const connection = await loadClusterConnection({ kubeconfig: flagIn(args, 'kubeconfig'), context: flagIn(args, 'context') });
  const reader = new KubeReader(connection);
  try {
    const items = await reader.list<{ metadata?: { name?: string } }>(path(connection.namespace));
    return items.map((item) => item.metadata?.name ?? '').filter((name) => name !== '').sort();
  } finally {
    reader.close();
  }
}

/** The context names of the kubeconfig the words (or the environment) name. */
async function contextNames(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const { load } = await import('js-yaml');
  const { delimiter, join } = await import('node:path');
  const files = flagIn(args, 'kubeconfig') ? [flagIn(args, 'kubeconfig')!] : env.KUBECONFIG ? env.KUBECONFIG.split(delimiter) : [join(env.HOME ?? '', '.kube', 'config')];
  const names = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const config = (load(text) ?? {}) as { contexts?: { name?: string }[] };
    for (const context of config.contexts ?? []) if (typeof context.name === 'string') names.add(context.name);
  }
  return [...names].sort();
}

/** A command that prints its own help: its flags, read from that help. */
async function withFlagsFromHelp(spec: CommandSpec): Promise<CommandSpec> {
  let help = '';
  const run = await commandNamed(spec.name)!.load();
  await run(['--help'], { stdout: (text) => (help += text), stderr: () => {} }, 'promop');
  const flags = new Map<string, boolean>();
  for (const match of help.matchAll(/--([a-z][a-z-]*)(=|\s+<|\[=)?/g)) flags.set(match[1]!, (flags.get(match[1]!) ?? false) || (match[2] !== undefined && match[2] !== '[='));
  return { ...spec, flags: [...flags].map(([name, takesValue]) => ({ name, ...(takesValue ? { value: '<value>' } : {}), help: '' })) };
}

/** The bash completion script: every TAB asks `promop __complete`. */
export function bashScript(): string {
  return `# bash completion for promop (and kubectl promop)      -*- shell-script -*-
# Load it: source <(promop completion bash), or save it to /etc/bash_completion.d/promop.
# kubectl promop completes through the kubectl_complete-promop command installed with promop (kubectl 1.26+).
_promop_complete() {
    local cur words cword
    cur="\${COMP_WORDS[COMP_CWORD]}"
    local out directive
    out=$(promop __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
    directive=\${out##*:}
    out=\${out%:*}
    local IFS=$'\\n'
    local candidates=()
    local line
    for line in $out; do candidates+=("\${line%%$'\\t'*}"); done
    if (( directive & ${DIRECTIVE.filterDirs} )); then
        compopt -o dirnames 2>/dev/null; COMPREPLY=(); return
    fi
    COMPREPLY=($(compgen -W "\${candidates[*]}" -- "$cur"))
    if (( \${#COMPREPLY[@]} == 0 )) && ! (( directive & ${DIRECTIVE.noFileComp} )); then
        compopt -o default 2>/dev/null
    fi
}
complete -F _promop_complete promop
`;
}

/** The zsh completion script: every TAB asks `promop __complete`, and shows the descriptions. */
export function zshScript(): string {
  return `#compdef promop
# zsh completion for promop. Load it: source <(promop completion zsh), or save it as _promop in your $fpath.
_promop() {
    local -a lines candidates
    local out directive
    out=$(promop __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return
    lines=("\${(@f)out}")
    directive=\${lines[-1]#:}
    lines=("\${(@)lines[1,-2]}")
    local line
    for line in $lines; do candidates+=("\${line/$'\\t'/:}"); done
    if (( directive & ${DIRECTIVE.filterDirs} )); then _files -/; return; fi
    if (( \${#candidates} > 0 )); then _describe 'promop' candidates; return; fi
    if ! (( directive & ${DIRECTIVE.noFileComp} )); then _files; fi
}
compdef _promop promop
`;
}
