/**
 * The built-in commands of shell completion: `completion <shell>` (prints a script) and the hidden
 * `__complete` the scripts call on every TAB. Source: spf13/cobra completions.go.
 */
import { Command } from '../tree/command.ts';
import { loadPath } from '../parse/parse.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { COMPLETE_COMMAND, COMPLETE_NO_DESC_COMMAND, COMPLETION_COMMAND, SHELLS, type Shell } from './directives.ts';

/**
 * The hidden `__complete <words...> <partial>` command for a root; with `descriptions` false, its
 * twin `__completeNoDesc` (Cobra's), which prints the values only.
 */
export function completeCommand(root: Command, descriptions = true): Command {
  const name = descriptions ? COMPLETE_COMMAND : COMPLETE_NO_DESC_COMMAND;
  return new Command({
    use: `${name} [words...]`,
    short: 'Request shell completion choices for the given words (used by the completion scripts)',
    long:
      `Prints the completion candidates for a partial command line, one a line (value<TAB>description),\n` +
      `then a line :<directive> with Cobra's ShellCompDirective bits (1 error, 2 no space, 4 no file\n` +
      `completion, 8 filter file extensions, 16 directories only, 32 keep order).\n` +
      `Usage: ${root.name} ${name} -- <words...> <partial>` +
      (descriptions ? '' : '\nValues only, without descriptions.'),
    hidden: true,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'text/plain' },
    args: [{ name: 'words', required: false, variadic: true }],
    validateArgs: () => {},
    // as Cobra's: every word is one to complete, flags included; the scripts send a leading `--`
    disableFlagParsing: true,
    run: async (ctx) => {
      const words = ctx.argv[0] === '--' ? ctx.argv.slice(1) : ctx.argv;
      // descend into the lazy subtrees the words name; one that fails to load is a failed
      // completion (`:1`, a line on stderr), never an error line the shell would show
      const { completeText } = await import('./completion.ts');
      return completeText(root, words, ctx.stderr, descriptions, () => loadPath(root, words));
    },
  });
}

const LOAD_HELP: Record<Shell, (p: string) => string> = {
  bash: (p) =>
    `Generate the autocompletion script for bash.\n\n` +
    `It works with or without the bash-completion package.\n\n` +
    `To load completions in your current shell session:\n\n  source <(${p} completion bash)\n\n` +
    `To load completions for every new session, execute once:\n\n` +
    `  Linux:  ${p} completion bash > /etc/bash_completion.d/${p}\n` +
    `  macOS:  ${p} completion bash > $(brew --prefix)/etc/bash_completion.d/${p}\n\n` +
    `You will need to start a new shell for this setup to take effect.`,
  zsh: (p) =>
    `Generate the autocompletion script for zsh.\n\n` +
    `If shell completion is not already enabled in your environment you will need to enable it.\n` +
    `You can execute the following once:\n\n  echo "autoload -U compinit; compinit" >> ~/.zshrc\n\n` +
    `To load completions in your current shell session:\n\n  source <(${p} completion zsh)\n\n` +
    `To load completions for every new session, execute once:\n\n` +
    `  ${p} completion zsh > "\${fpath[1]}/_${p}"\n\n` +
    `You will need to start a new shell for this setup to take effect.`,
  fish: (p) =>
    `Generate the autocompletion script for fish.\n\n` +
    `To load completions in your current shell session:\n\n  ${p} completion fish | source\n\n` +
    `To load completions for every new session, execute once:\n\n` +
    `  ${p} completion fish > ~/.config/fish/completions/${p}.fish\n\n` +
    `You will need to start a new shell for this setup to take effect.`,
  powershell: (p) =>
    `Generate the autocompletion script for PowerShell.\n\n` +
    `To load completions in your current shell session:\n\n` +
    `  ${p} completion powershell | Out-String | Invoke-Expression\n\n` +
    `To load completions for every new session, add the output of the above command\nto your PowerShell profile.`,
};

/** `completion` with one subcommand per shell, each printing its script. */
export function completionCommand(root: Command): Command {
  const program = root.name;
  const builtin = { [BUILTIN_ANNOTATION]: 'true' };
  const shells = SHELLS.map(
    (shell) =>
      new Command({
        use: shell,
        // PowerShell 7 is run as `pwsh`: the name people type for the shell
        aliases: shell === 'powershell' ? ['pwsh'] : [],
        short: `Generate the autocompletion script for ${shell}`,
        long: LOAD_HELP[shell](program),
        annotations: builtin,
        effects: 'read_only',
        output: { kind: 'opaque', mediaType: 'text/plain' },
        flags: { 'no-descriptions': { type: 'bool', usage: 'disable completion descriptions' } },
        run: async (ctx) =>
          (await import('./scripts.ts')).completionScript(shell, program, {
            descriptions: ctx.flags.noDescriptions !== true,
          }),
      }),
  );
  return new Command({
    use: COMPLETION_COMMAND,
    short: 'Generate the autocompletion script for the specified shell',
    long:
      `Generate the autocompletion script for ${program} for the specified shell.\n` +
      `See each sub-command's help for details on how to use the generated script.`,
    annotations: builtin,
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'text/plain' },
    commands: shells,
  });
}

/**
 * The commands to add to a root: `completion` (bash|zsh|fish|powershell) and the hidden
 * `__complete` and `__completeNoDesc`. All are marked built-in (reserved, never MCP tools).
 */
export function completionCommands(root: Command): Command[] {
  return [completionCommand(root), completeCommand(root), completeCommand(root, false)];
}
