/**
 * The values completion offers for one flag or argument, in Cobra's order: file extensions or a
 * directory, choices, the author's `completer` (called with the flags and arguments already on the
 * line, typed as a handler gets them), then a kind's own values or files.
 *
 * Source: spf13/cobra completions.go (getCompletions, the ValidArgsFunction call).
 */
import type { Command } from '../tree/command.ts';
import { argValue } from '../tree/args.ts';
import { camelCase, type Completer, type CompletionReply, type Flag } from '../tree/flags.ts';
import { applyFlagText } from '../tree/flag-values.ts';
import { kindOf } from '../tree/flag-kinds/index.ts';
import { flagsOf } from '../tree/flagset.ts';
import type { Position } from './locate.ts';
import { ShellCompDirective } from './directives.ts';

/** One completion candidate. */
export interface Candidate {
  value: string;
  description?: string;
}

/** What `__complete` answers. */
export interface CompletionResult {
  candidates: Candidate[];
  /** Bit set of {@link ShellCompDirective}. */
  directive: number;
}

/** No file completion: the candidates are all there is. */
export const NO_FILE = ShellCompDirective.NoFileComp;

/** One line of description: first line, tabs and newlines folded to spaces. */
export function oneLine(s: string | undefined): string | undefined {
  const t = (s ?? '').split(/\r?\n/)[0]!.replace(/\s+/g, ' ').trim();
  return t || undefined;
}

/** Splits a completer value `value\tdescription` (Cobra's convention) into a candidate. */
function fromCompleter(v: unknown): Candidate | undefined {
  if (typeof v !== 'string') return undefined;
  const tab = v.indexOf('\t');
  const value = tab >= 0 ? v.slice(0, tab) : v;
  if (value === '' || /[\r\n]/.test(value)) return undefined;
  return { value, description: tab >= 0 ? oneLine(v.slice(tab + 1)) : undefined };
}

/** Keeps the candidates that start with what is typed. */
export const byPrefix = (partial: string) => (c: Candidate) => c.value.startsWith(partial);

/** Whether a completer answered Cobra's `{completions, directive}`. */
function isReply(v: unknown): v is CompletionReply {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Array.isArray((v as CompletionReply).completions);
}

/**
 * Calls a completer: plain values are filtered by the partial (directive NoFileComp); Cobra's
 * `{completions, directive}` is taken as given (see {@link Completer}).
 * @throws TypeError when it returns anything else; whatever the completer throws.
 */
export async function callCompleter(
  fn: Completer,
  partial: string,
  cmd: Command,
  args: readonly string[],
  pos?: Position,
): Promise<CompletionResult> {
  const answer = await fn(partial, {
    args: [...args],
    commandPath: cmd.commandPath(),
    flags: pos ? typedFlags(cmd, pos.occurrences) : {},
    argValues: typedArgs(cmd, args),
    word: pos?.word ?? partial,
  });
  const reply = isReply(answer);
  const values = reply ? answer.completions : answer;
  if (!Array.isArray(values) || (reply && answer.directive !== undefined && !Number.isInteger(answer.directive))) {
    throw new TypeError('a completer must return an array of strings or {completions: string[], directive?: number}');
  }
  const candidates = values.map(fromCompleter).filter((c): c is Candidate => c !== undefined);
  return reply
    ? { candidates, directive: answer.directive ?? ShellCompDirective.Default }
    : { candidates: candidates.filter(byPrefix(partial)), directive: NO_FILE };
}

/**
 * The flags already on the line as a handler would get them (typed, camelCase keys), read as the
 * parser reads them; an occurrence that does not parse is left out (the line is still being typed).
 */
function typedFlags(cmd: Command, occurrences: Position['occurrences']): Record<string, unknown> {
  const flags = flagsOf(cmd);
  const values = new Map<string, unknown>();
  for (const [name, text] of occurrences) {
    const f = flags.get(name);
    if (!f) continue;
    try {
      values.set(name, applyFlagText(name, f.spec, values.get(name), text, !values.has(name)));
    } catch {
      /* a value being typed, or a wrong one: not told */
    }
  }
  return Object.fromEntries([...values].map(([n, v]) => [camelCase(n), v]));
}

/** The named positionals already on the line (camelCase keys; int/float ones as numbers, when they are). */
function typedArgs(cmd: Command, given: readonly string[]): Record<string, string | string[] | number | number[]> {
  const out: Record<string, string | string[] | number | number[]> = {};
  cmd.args.forEach((a, i) => {
    if (i >= given.length) return;
    out[camelCase(a.name)] = a.variadic
      ? (given.slice(i).map((w) => argValue(a, w)) as string[] | number[])
      : argValue(a, given[i]!);
  });
  return out;
}

/**
 * Values of a flag, in Cobra's order: its file extensions (FilterFileExt) or directory
 * (FilterDirs), then choices, then its completer, `true`/`false` for a bool, else files for
 * string-like flags (nothing for numbers).
 */
export async function flagValues(
  f: Flag,
  partial: string,
  cmd: Command,
  args: readonly string[],
  pos?: Position,
): Promise<CompletionResult> {
  const spec = f.spec;
  if (spec.fileExts?.length)
    return { candidates: spec.fileExts.map((value) => ({ value })), directive: ShellCompDirective.FilterFileExt };
  if (spec.dirname !== undefined)
    return {
      candidates: spec.dirname === true ? [] : [{ value: spec.dirname }],
      directive: ShellCompDirective.FilterDirs,
    };
  const kind = kindOf(spec);
  if (kind.completeValues)
    return {
      candidates: kind.completeValues.map((value) => ({ value })).filter(byPrefix(partial)),
      directive: NO_FILE,
    };
  // a comma-split list with choices: complete the item after the last comma, keeping the ones before.
  const comma = kind.csv && spec.choices ? partial.lastIndexOf(',') : -1;
  const head = comma >= 0 ? partial.slice(0, comma + 1) : '';
  const item = partial.slice(head.length);
  if (spec.choices) {
    const taken = new Set(head.split(',').filter(Boolean));
    const candidates = spec.choices.filter((c) => !taken.has(c)).map((c) => ({ value: head + c }));
    return { candidates: candidates.filter(byPrefix(head + item)), directive: NO_FILE };
  }
  if (spec.completer) return callCompleter(spec.completer, partial, cmd, args, pos);
  if (kind.completeFiles) return { candidates: [], directive: ShellCompDirective.Default };
  return { candidates: [], directive: NO_FILE };
}
