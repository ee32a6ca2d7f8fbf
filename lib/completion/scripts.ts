/**
 * Completion scripts for bash, zsh, fish and PowerShell, Cobra's model: each script asks the program
 * itself on every TAB (`<program> __complete -- <words...> <current word>`, see completion.ts) and
 * applies the directive of the last line (`:<bits>`: 1 error, 2 no space, 4 no file completion,
 * 8 filter file extensions, 16 directories only, 32 keep order). Nothing about the tree is baked in,
 * so a script never goes stale when commands or flags change.
 *
 * - bash: plain `complete -F` with COMP_WORDS/COMP_CWORD/COMP_LINE (bash 4+), no bash-completion needed.
 * - zsh: a `#compdef` function using `_describe` (descriptions) and `_files`; `compdef` when sourced.
 * - fish: `complete -c … -f -a '(…)'` rules with descriptions; falls back to fish's file completion.
 * - PowerShell: `Register-ArgumentCompleter -Native` returning CompletionResults with tooltips.
 *
 * Source: spf13/cobra bash_completionsV2.go, zsh_completions.go, fish_completions.go,
 * powershell_completions.go (same protocol and directive handling; the scripts are ax-ts's own).
 */

/** Options of {@link completionScript}. */
export interface ScriptOptions {
  /** Show candidate descriptions (default true). */
  descriptions?: boolean;
}

// Placeholders: {{PROG}} program name (comments), {{QPROG}} program name quoted for code when
// needed, {{FN}} the name reduced to [A-Za-z0-9_] for function and variable names, {{DESC}} 1 or 0.
// The scripts are template literals: in them \${, \` and \\ stand for ${, ` and \ (no ${} is
// ever interpolated). test/completion/shells.test.ts runs bash, zsh and fish on them.

import { SHELLS, type Shell } from './directives.ts';
import { BASH } from './scripts/bash.ts';
import { ZSH } from './scripts/zsh.ts';
import { FISH } from './scripts/fish.ts';
import { POWERSHELL } from './scripts/powershell.ts';

const TEMPLATES: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH, powershell: POWERSHELL };

/** The program name as a word in the shell's code: bare when safe, else single-quoted. */
function quoteProgram(shell: Shell, program: string): string {
  if (/^[A-Za-z0-9._+-]+$/.test(program) && shell !== 'powershell') return program;
  if (shell === 'powershell') return `'${program.replace(/'/g, "''")}'`;
  if (shell === 'fish') return `'${program.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  return `'${program.replace(/'/g, `'\\''`)}'`;
}

/** The identifier used for the script's functions: the program name with [^A-Za-z0-9_] as `_`. */
export function completionFunctionId(program: string): string {
  return program.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * The completion script of `program` for `shell`.
 * @throws TypeError when the shell is unknown or the program name is empty or spans lines.
 */
export function completionScript(shell: Shell, program: string, options: ScriptOptions = {}): string {
  const template = TEMPLATES[shell];
  if (!template)
    throw new TypeError(
      `completionScript: unknown shell ${JSON.stringify(shell)} (expected one of ${SHELLS.join(', ')})`,
    );
  if (!program || /[\r\n]/.test(program))
    throw new TypeError(`completionScript: invalid program name ${JSON.stringify(program)}`);
  const values: Record<string, string> = {
    PROG: program,
    QPROG: quoteProgram(shell, program),
    FN: completionFunctionId(program),
    DESC: options.descriptions === false ? '0' : '1',
  };
  return template.replace(/\{\{(PROG|QPROG|FN|DESC)\}\}/g, (_, k: string) => values[k]!);
}
