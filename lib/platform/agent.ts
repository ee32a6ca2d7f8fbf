/**
 * Who runs the program: an AI agent, a CI job or a person at a terminal. Read from the environment
 * of the run and whether stdin and stdout are terminals; nothing here writes or waits. `ctx.agent`
 * and `ctx.interactive` are these answers, and no prompt ax-ts draws asks anyone when the run is not
 * interactive (docs/contract.md "Agents and prompts").
 *
 * Several agents run shell commands in a pseudo-terminal, so a terminal on stdin and stdout does not
 * mean a person is there to answer: an agent variable, or `CI`, says nobody is. `FORCE_TTY=1` says
 * somebody is, whatever the rest says.
 */

/**
 * Environment variables that say an agent runs the program, in the order they are read. The two
 * standards come first and carry the agent's own name as their value: `AI_AGENT` (promoted by
 * Vercel's detect-agent) and `AGENT` (set by Amp and goose). Then each agent's own mark, the one it
 * sets in the shells it runs commands in, as the common detectors read them (std-env,
 * @vercel/detect-agent, am-i-vibing): `equals`, when given, is the value the variable must have.
 * A hint for the program's UX (docs/contract.md "Agents and prompts"), never a trust boundary:
 * anyone can set any of them.
 */
export const AGENT_VARIABLES: readonly { variable: string; agent: string; equals?: string }[] = Object.freeze([
  { variable: 'AI_AGENT', agent: '' },
  { variable: 'AGENT', agent: '' },
  { variable: 'CLAUDECODE', agent: 'claude-code' },
  { variable: 'CLAUDE_CODE', agent: 'claude-code' },
  { variable: 'CURSOR_AGENT', agent: 'cursor' },
  { variable: 'CODEX_THREAD_ID', agent: 'codex' },
  { variable: 'CODEX_SANDBOX', agent: 'codex' },
  { variable: 'GEMINI_CLI', agent: 'gemini-cli' },
  { variable: 'OPENCODE', agent: 'opencode' },
  { variable: 'OPENCODE_CALLER', agent: 'opencode' },
  { variable: 'GOOSE_TERMINAL', agent: 'goose' },
  { variable: 'COPILOT_CLI', agent: 'copilot' },
  { variable: 'COPILOT_AGENT_SESSION_ID', agent: 'copilot' },
  { variable: 'AUGMENT_AGENT', agent: 'augment' },
  // REPL_ID alone is any Replit shell, a person's too: only its assistant mode is an agent
  { variable: 'REPLIT_MODE', agent: 'replit', equals: 'assistant' },
]);

const OFF = new Set(['0', 'false', 'no', 'off']);
const ON = new Set(['1', 'true', 'yes', 'on']);

/** Whether a variable is set to something other than blank or a "no" word (0, false, no, off; any case). */
export function envFlag(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v !== undefined && v !== '' && !OFF.has(v);
}

/**
 * The agent running the program, from {@link AGENT_VARIABLES}: `AI_AGENT`'s or else `AGENT`'s value
 * (lower-cased; `unknown` when it is only a yes word such as `1`), else the agent of the first mark
 * that is set ({@link envFlag}; to its `equals` value where one is given); undefined when none is.
 */
export function detectAgent(env: Record<string, string | undefined>): string | undefined {
  for (const { variable, agent, equals } of AGENT_VARIABLES) {
    const raw = env[variable];
    if (!envFlag(raw)) continue;
    if (equals !== undefined && raw!.trim().toLowerCase() !== equals) continue;
    if (agent) return agent;
    const named = raw!.trim().toLowerCase();
    return ON.has(named) ? 'unknown' : named;
  }
  return undefined;
}

/** Whether a CI system runs the program (`CI` set to anything but blank or a no word). */
export function isCI(env: Record<string, string | undefined>): boolean {
  return envFlag(env.CI);
}

/** What {@link isInteractive} reads. */
export interface InteractiveFacts {
  env: Record<string, string | undefined>;
  /** Whether stdin is a terminal. */
  stdinIsTTY: boolean;
  /** Whether stdout is a terminal. */
  stdoutIsTTY: boolean;
}

/**
 * Whether a person can answer a prompt: `FORCE_TTY` set ({@link envFlag}) says yes; otherwise yes
 * only with a terminal on both stdin and stdout, no `CI` and no agent variable.
 */
export function isInteractive(facts: InteractiveFacts): boolean {
  if (envFlag(facts.env.FORCE_TTY)) return true;
  return facts.stdinIsTTY && facts.stdoutIsTTY && !isCI(facts.env) && detectAgent(facts.env) === undefined;
}

/** {@link notInteractiveBecause}'s words when neither an agent nor CI is detected. */
export const NO_TERMINAL = 'no terminal is available to ask';

/** Why a run is not interactive, in words for an error message (`an agent (claude-code) runs it`). */
export function notInteractiveBecause(env: Record<string, string | undefined>): string {
  const agent = detectAgent(env);
  if (agent !== undefined) return `an agent (${agent}) runs it`;
  if (isCI(env)) return 'it runs in CI';
  return NO_TERMINAL;
}
