/**
 * The runnable next steps of a stop (`error.next[]`, docs/contract.md "Stops and next steps"): the
 * call that stopped, amended (the same command line with `--yes` added, the same `--args-json`
 * object with `"yes": true`, the same tool call with `yes: true`), or the steps an author names
 * with `ctx.actionRequired`. On the command line a step is a command line with the program's name
 * in front and the caller's own mode flags (`--format json`) carried; over MCP a tool call.
 */
import { redactSecretArgs } from '../tree/secret.ts';
import { redactSecretWords } from '../parse/flag-words.ts';
import { AxError, KIND_RE, type NextStep } from '../contract/errors.ts';
import type { ActionRequired } from '../tree/interaction.ts';
import type { Command } from '../tree/command.ts';
import { kindOf } from '../tree/flag-kinds/index.ts';
import { argValue } from '../tree/args.ts';
import { flagsOf, injectedInForce } from '../tree/flagset.ts';
import { propertyName } from '../tree/flags.ts';
import { toolPropertyIndex } from '../tree/properties.ts';
import { findCommand, parseArgv, scanFormat, type Invocation } from '../parse/parse.ts';
import { defaultToolName, isWithin, toolStatus } from './walk.ts';

/** One step an author names (`ctx.actionRequired`): the words after the program's name, and what it does. */
type ActionStep = ActionRequired['next'][number];

/**
 * How an MCP caller calls a command's tool, when not by its own name: a progressive-discovery
 * server (docs/mcp-server.md#progressive-discovery) lists only its call tools, so a step to tool
 * `tool` with `args` is the call tool with `{name: tool, arguments: args}`. Default: the tool itself.
 */
export type ToolVia = (
  tool: string,
  args: Record<string, unknown>,
) => { tool: string; arguments: Record<string, unknown> };

/** The tool call of a step over MCP, through `via` when given. */
function mcpCall(
  tool: string,
  args: Record<string, unknown>,
  via?: ToolVia,
): { tool: string; arguments: Record<string, unknown> } {
  return via ? via(tool, args) : { tool, arguments: args };
}

const PLAIN = /^[A-Za-z0-9_./:=,@%+-]+$/;

/** One word for a POSIX shell: as is when it needs no quoting (or is a `<name>` placeholder), else in single quotes. */
export function shellWord(w: string): string {
  if (PLAIN.test(w) || /^<[A-Za-z0-9_-]+>$/.test(w)) return w;
  return `'${w.replace(/'/g, `'\\''`)}'`;
}

/** A step from command-line words (the program's name first). */
function lineStep(argv: string[], description?: string): NextStep {
  return { ...(description ? { description } : {}), command: argv.map(shellWord).join(' '), argv };
}

/** The words that give flag `name` the value `v`. */
function flagWords(cmd: Command, name: string, v: unknown): string[] {
  const f = flagsOf(cmd).get(name);
  return f ? kindOf(f.spec).toArgv(name, v as never) : [`--${name}=${String(v)}`];
}

/** Whether flag `name` is a property of the command's inputSchema. */
function isInput(cmd: Command, name: string): boolean {
  const p = toolPropertyIndex(cmd).get(propertyName(name));
  return p?.flag?.name === name;
}

/** `argv` with `words` added before a `--` (after which words are positionals), else at the end. */
function insertFlags(argv: readonly string[], words: string[]): string[] {
  const dash = argv.indexOf('--');
  return dash < 0 ? [...argv, ...words] : [...argv.slice(0, dash), ...words, ...argv.slice(dash)];
}

/** `argv` with the value of its `--args-json` replaced by `json`. */
function replaceArgsJson(argv: readonly string[], json: string): string[] {
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    if (out[i] === '--') break;
    if (out[i] === '--args-json' && i + 1 < out.length) {
      out[i + 1] = json;
      return out;
    }
    if (out[i]!.startsWith('--args-json=')) {
      out[i] = `--args-json=${json}`;
      return out;
    }
  }
  return [...out, '--args-json', json];
}

/**
 * The call that stopped, run again with `add` (flag long name → value) and the flags of `fill`
 * (long names) given `<name>` placeholders the caller fills in: the same command line with those
 * flags, the same `--args-json` object or tool arguments with those properties. Tool names are
 * relative to `base`, the command an MCP server serves (default the root: docs/mcp-server.md#mounting),
 * and an MCP call goes through `via` when given ({@link ToolVia}).
 */
export function retryStep(
  inv: Invocation,
  program: string,
  add: Record<string, unknown>,
  fill: readonly string[],
  description: string,
  base?: Command,
  via?: ToolVia,
): NextStep | undefined {
  const cmd = inv.command;
  // as JSON (MCP, --args-json) only properties the inputSchema has can be added
  if (inv.source === 'values' && [...Object.keys(add), ...fill].some((n) => !isInput(cmd, n))) return undefined;
  const props = Object.fromEntries([
    ...Object.entries(add).map(([n, v]) => [propertyName(n), v]),
    ...fill.map((n) => [propertyName(n), `<${propertyName(n)}>`]),
  ]);
  if (inv.argsJson && inv.argv) {
    // a secret's value is never repeated: its placeholder is (docs/security.md#secret-flags)
    return argsJsonStep(inv, program, { ...redactSecretArgs(cmd, inv.argsJson, true), ...props }, description, base);
  }
  if (inv.source === 'argv' && inv.argv) {
    const words = [
      ...Object.entries(add).flatMap(([n, v]) => flagWords(cmd, n, v)),
      ...fill.flatMap((n) => [`--${n}`, `<${n}>`]),
    ];
    return lineStep([program, ...insertFlags(redactSecretWords(inv), words)], description);
  }
  const args = inv.arguments && redactSecretArgs(cmd, inv.arguments, false);
  return { description, ...mcpCall(defaultToolName(cmd, base), { ...args, ...props }, via) };
}

/**
 * The same `--args-json` call (`inv`, which came that way) with its object replaced by `args`: the
 * command line and the tool call it makes. `args` is given as it stands (the caller redacts secrets).
 */
export function argsJsonStep(
  inv: Invocation,
  program: string,
  args: Record<string, unknown>,
  description: string,
  base?: Command,
): NextStep {
  return {
    ...lineStep([program, ...replaceArgsJson(inv.argv ?? [], JSON.stringify(args))], description),
    tool: defaultToolName(inv.command, base),
    arguments: args,
  };
}

/**
 * The steps an author names, for this caller: command lines with the program's name in front and
 * the caller's `--format` carried (on every path but MCP), and — over MCP and for `--args-json` —
 * the tool call each line makes, when it names a command that is a tool (of the server's `base`,
 * default the root: docs/mcp-server.md#mounting) and parses; over MCP through `via` when given.
 * Stopped in a dry run (`dryRun`), a step naming a command that offers one keeps the rehearsal
 * (`--dry-run`, `dry_run: true`): run verbatim, it previews instead of acting.
 */
export function authorSteps(
  inv: Invocation,
  root: Command,
  steps: readonly ActionStep[],
  base?: Command,
  via?: ToolVia,
  dryRun = false,
): NextStep[] {
  const mode = modeWords(inv);
  const mcp = inv.source === 'values' && !inv.argsJson; // an --args-json caller is on the command line
  return steps.map((step) => {
    const s = dryRun ? { ...step, args: rehearsed(root, step.args) } : step;
    const line = lineStep([root.name, ...insertFlags(s.args, mode)], s.description);
    const call = inv.source === 'values' || inv.argsJson ? toolCall(root, s.args, base) : undefined;
    if (mcp)
      return {
        ...(s.description ? { description: s.description } : {}),
        ...(call ? mcpCall(call.tool, call.arguments, via) : line),
      };
    return { ...line, ...call };
  });
}

/** A step's words with `--dry-run` added when the command they name offers a dry run and they lack it. */
function rehearsed(root: Command, args: readonly string[]): readonly string[] {
  const dash = args.indexOf('--');
  const flags = dash < 0 ? args : args.slice(0, dash);
  if (flags.includes('--dry-run')) return args;
  // an author's `--dry-run=<value>` becomes the rehearsal itself (a step run verbatim never acts)
  const given = flags.findIndex((w) => w.startsWith('--dry-run='));
  if (given >= 0) return args.map((w, i) => (i === given ? '--dry-run' : w));
  try {
    return injectedInForce(findCommand(root, args).command, 'dry-run') ? insertFlags(args, ['--dry-run']) : args;
  } catch {
    return args;
  }
}

/** The caller's own `--format` words, when it gave one on its command line (the injected flag, not a command's own). */
function modeWords(inv: Invocation): string[] {
  if (!inv.argv || !inv.resolved.inForce('format')) return [];
  const format = scanFormat(inv.command, inv.argv);
  return format === undefined ? [] : ['--format', format];
}

/**
 * The tool call a command line makes: the tool and its arguments, or undefined when it names no
 * tool (of `base`'s subtree, when given) or does not parse.
 */
function toolCall(
  root: Command,
  args: readonly string[],
  base?: Command,
): { tool: string; arguments: Record<string, unknown> } | undefined {
  try {
    const { command } = findCommand(root, args);
    if (toolStatus(command) !== 'tool' || !isWithin(command, base)) return undefined;
    const inv = parseArgv(root, args);
    const out: Record<string, unknown> = {};
    const flags = inv.resolved.all;
    for (const [name, v] of inv.values) {
      const f = flags.get(name);
      if (f) out[propertyName(name)] = kindOf(f.spec).schemaDefault(v, f.spec);
    }
    command.args.forEach((a, i) => {
      const given = a.variadic ? inv.positionals.slice(i) : inv.positionals[i];
      if (given === undefined || (Array.isArray(given) && given.length === 0)) return;
      out[propertyName(a.name)] = Array.isArray(given) ? given.map((w) => argValue(a, w)) : argValue(a, given);
    });
    return { tool: defaultToolName(command, base), arguments: out };
  } catch {
    return undefined;
  }
}

/**
 * The error of `ctx.actionRequired(stop)`: kind `action_required` (exit 2), the stop's message and
 * reason (`context.reason`), and its steps as this caller runs them ({@link authorSteps}; tool
 * names relative to `base`, MCP calls through `via`, a dry run's steps kept rehearsals).
 * @throws TypeError for a malformed stop (a reason that is no stable code, a step without words).
 */
export function actionRequiredError(
  inv: Invocation,
  root: Command,
  stop: ActionRequired,
  base?: Command,
  via?: ToolVia,
  dryRun = false,
): AxError {
  if (stop === null || typeof stop !== 'object')
    throw new TypeError('ctx.actionRequired: pass {reason, message, next}');
  const { reason, message, next, fix } = stop;
  if (typeof reason !== 'string' || !KIND_RE.test(reason))
    throw new TypeError(
      `ctx.actionRequired: reason ${JSON.stringify(reason)} must match ^[a-z][a-z0-9_]*$ (e.g. login_required)`,
    );
  if (typeof message !== 'string' || message.trim() === '')
    throw new TypeError('ctx.actionRequired: message must be a sentence saying what must happen first');
  if (
    !Array.isArray(next) ||
    next.some(
      (n) => !n || !Array.isArray(n.args) || n.args.length === 0 || n.args.some((w: unknown) => typeof w !== 'string'),
    )
  )
    throw new TypeError(
      'ctx.actionRequired: next must be a list of {args: [words after the program name], description?}',
    );
  const steps = authorSteps(inv, root, next, base, via, dryRun);
  return new AxError('action_required', message, {
    fix:
      fix ??
      `Run the next step that ` +
        `fits: ${steps.map((n) => n.command ?? `${n.tool} ${JSON.stringify(n.arguments ?? {})}`).join('; or ')}.`,
    context: { reason },
    next: steps,
  });
}
