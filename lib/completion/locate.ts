/**
 * Where a partial command line stands, for completion: the words before the partial walked as the
 * parser walks them (command words, interspersed flags and their values, `--`), never failing on
 * anything. Source: spf13/cobra completions.go (getCompletions: Find or Traverse, then the flags seen).
 * Split from completion.ts, which ranks and formats the candidates from this position.
 */
import type { Command } from '../tree/command.ts';
import { takesValue, type Flag } from '../tree/flags.ts';
import { flagByShort, flagsOf } from '../tree/flagset.ts';

/** Whether a token is a flag (`-x`, `--x`), not `-` alone. */
function isFlagToken(tok: string): boolean {
  return tok.length > 1 && tok[0] === '-';
}

/** Where the words before the partial leave us. */
export interface Position {
  command: Command;
  /** Positionals given (command words removed). */
  positionals: string[];
  /** Long names of the flags already given. */
  given: Set<string>;
  /** Each flag occurrence already given, in order: its long name and its text (undefined for a bare bool). */
  occurrences: [name: string, text: string | undefined][];
  /** A `--` was given: everything after it is positional. */
  afterDashDash: boolean;
  /** The last word was a flag that still needs its value: the partial is that value. */
  pending?: Flag;
  /** The word being completed as typed (`--tag=a,b`), whose value part is the partial (`b`). */
  word?: string;
  /**
   * Cobra's enforceFlagGroupsForCompletion: flags its flag groups make required for now (the rest of
   * a required-together group one of whose flags was given; every flag of a one-required group none
   * of whose flags was given), and flags they hide (the others of a mutually exclusive group one of
   * whose flags was given). Filled by {@link applyFlagGroups}.
   */
  groupRequired: Set<string>;
  groupHidden: Set<string>;
  /**
   * Without TraverseChildren, a flag given before a later command word that the final command does
   * not accept (an ancestor's local flag): Cobra's parse of the line fails and nothing is completed.
   */
  stray?: boolean;
}

/** Finds a flag by long name, accepting `no-<name>` for negatable bools. */
export function longFlag(cmd: Command, name: string): Flag | undefined {
  const flags = flagsOf(cmd);
  const f = flags.get(name);
  if (f) return f;
  if (name.startsWith('no-')) {
    const neg = flags.get(name.slice(3));
    if (neg?.spec.negatable) return neg;
  }
  return undefined;
}

/**
 * Walks the completed words like the parser does (command words first, interspersed flags and their
 * values, `--`), without failing on anything: unknown flags and bad values are skipped.
 */
export function locate(root: Command, words: readonly string[]): Position {
  const pos: Position = {
    command: root,
    positionals: [],
    given: new Set(),
    occurrences: [],
    afterDashDash: false,
    groupRequired: new Set(),
    groupHidden: new Set(),
  };
  const levels: [Command, Flag][] = [];
  for (let i = 0; i < words.length; i++) {
    const tok = words[i]!;
    const cmd = pos.command;
    if (pos.afterDashDash) {
      pos.positionals.push(tok);
      continue;
    }
    if (tok === '--') {
      pos.afterDashDash = true;
      continue;
    }
    if (isFlagToken(tok)) {
      if (tok.startsWith('--')) {
        const eq = tok.indexOf('=');
        const f = longFlag(cmd, eq >= 0 ? tok.slice(2, eq) : tok.slice(2));
        if (!f) continue;
        pos.given.add(f.name);
        levels.push([cmd, f]);
        const negated = f.name !== (eq >= 0 ? tok.slice(2, eq) : tok.slice(2));
        if (eq < 0 && takesValue(f.spec) && !negated) {
          if (i + 1 < words.length) pos.occurrences.push([f.name, words[++i]!]);
          else pos.pending = f;
        } else pos.occurrences.push([f.name, negated ? 'false' : eq >= 0 ? tok.slice(eq + 1) : undefined]);
        continue;
      }
      const body = tok.slice(1);
      for (let j = 0; j < body.length; j++) {
        const f = flagByShort(cmd, body[j]!);
        if (!f) continue;
        pos.given.add(f.name);
        levels.push([cmd, f]);
        if (body[j + 1] === '=') {
          pos.occurrences.push([f.name, body.slice(j + 2)]);
          break;
        }
        if (takesValue(f.spec)) {
          if (j < body.length - 1) pos.occurrences.push([f.name, body.slice(j + 1)]);
          else if (i + 1 < words.length) pos.occurrences.push([f.name, words[++i]!]);
          else pos.pending = f;
          break;
        }
        pos.occurrences.push([f.name, undefined]);
      }
      continue;
    }
    const child = pos.positionals.length === 0 ? cmd.findChild(tok) : undefined;
    if (child) {
      pos.command = child;
      continue;
    }
    pos.positionals.push(tok);
  }
  // Cobra's Find hands every flag word to the final command; under TraverseChildren each ancestor
  // has read its own (Cobra's Traverse)
  if (!root.traverseChildren)
    pos.stray = levels.some(
      ([c, f]) => c !== pos.command && flagsOf(pos.command).get(f.name)?.spec !== f.spec && !f.builtin,
    );
  return pos;
}
