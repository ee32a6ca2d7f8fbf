/**
 * Which invocations of a front-ended program go to ax-ts (docs/frontends.md#which-invocations-go-to-ax-ts):
 * the check every front end makes on the words alone, before any parsing. Light on purpose: a
 * front end's entry imports it, and a person's run must load nothing of ax-ts's runtime.
 */

/** Words that ask for ax-ts's commands (unless the program has a command of that name). */
const AX_COMMANDS = ['__schema', '__complete', '__completeNoDesc', 'mcp-server', 'completion'];
/** Flags that ask for ax-ts (unless the program declares that option on its root). */
const AX_FLAGS = ['--format', '--args-json'];
/** `AGENT_MODE` values that ask for json (ax-ts's table: docs/contract.md). */
const JSON_MODES = new Set(['json', 'agent', 'machine', '1', 'true', 'yes', 'on']);

/** What the program itself owns among the words that would otherwise ask for ax-ts. */
export interface ProgramWords {
  /** The names and aliases of the program's root commands. */
  commands: ReadonlySet<string>;
  /**
   * Whether the program owns an option with this long spelling (`--format`) for these words (the
   * routing words: those before `--`): declared on the root or on a command the words reach.
   */
  ownsOption: (long: string, words: readonly string[]) => boolean;
}

/**
 * Whether an invocation asks for ax-ts: an ax-ts command word the program does not have itself,
 * `--format`/`--args-json` where the program has no such option, or `AGENT_MODE` set to a json
 * value. Only the words before `--` are read.
 */
export function asksForAxWords(
  own: ProgramWords,
  words: readonly string[],
  env: Record<string, string | undefined>,
): boolean {
  const all = words.map(String); // a JavaScript caller may pass numbers, as commander and yargs allow
  // words after `--` are operands, never routing words
  const end = all.indexOf('--');
  const texts = end < 0 ? all : all.slice(0, end);
  if (texts.some((w) => AX_COMMANDS.includes(w) && !own.commands.has(w))) return true;
  for (const flag of AX_FLAGS)
    if (!own.ownsOption(flag, texts) && texts.some((w) => w === flag || w.startsWith(`${flag}=`))) return true;
  return JSON_MODES.has((env.AGENT_MODE ?? '').trim().toLowerCase());
}
