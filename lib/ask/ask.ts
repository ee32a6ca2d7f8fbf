/**
 * Asking while a command runs: `ctx.confirm`, `ctx.elicit` and `ctx.sample`. Each goes through the
 * channel the run has — the MCP client (elicitation, sampling) when the bridge set one, else a
 * terminal on stdin for confirm and elicit — and otherwise fails at once with an error whose fix
 * names what to pass instead. Nothing here ever waits for input nobody can give.
 * Source: MCP 2025-11-25 client features (elicitation, sampling);
 * docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm.
 */
import type { Readable } from 'node:stream';
import { NO_TERMINAL } from '../platform/agent.ts';
import { AxError, type NextStep } from '../contract/errors.ts';
import type { RunContext } from '../tree/command.ts';
import { camelCase } from '../tree/flags.ts';
import type { Flag } from '../tree/flags.ts';
import { toolPropertyIndex } from '../tree/properties.ts';
import type {
  AskOptions,
  ElicitAnswer,
  ElicitSchema,
  Interaction,
  Root,
  SampleRequest,
  SampleResult,
} from '../tree/interaction.ts';
import { checkSchema, misfit, parseTyped, prompt, type Value } from './form.ts';

/** Default `maxTokens` of a sampling request. */
export const DEFAULT_MAX_TOKENS = 1024;

/** What the asking functions need from the run besides the context. */
export interface AskScope {
  ctx: RunContext;
  /** The running command's flag set, as its invocation carries it (lib/tree/resolved.ts). */
  flags: ReadonlyMap<string, Flag>;
  interaction?: Interaction;
  /** Flag spelling for messages (`--yes` on the CLI, `yes` under MCP). */
  label: (flagName: string) => string;
  /** Races a promise against the run's signal (interrupted after the grace period). */
  race: <T>(p: Promise<T>) => Promise<T>;
  /** Why nobody can be asked, in words (`an agent (claude-code) runs it`), when `ctx.interactive` is false. */
  notInteractive: () => string;
  /**
   * A stop's next step: the call that stopped, again with the flags of `add` (long name → value)
   * and those of `fill` given `<name>` placeholders (lib/schema/next-steps.ts).
   */
  retry: (add: Record<string, unknown>, fill: readonly string[], description: string) => NextStep | undefined;
}

/** A step as the `next` list (none when the call cannot be made again that way). */
function steps(step: NextStep | undefined): NextStep[] | undefined {
  return step ? [step] : undefined;
}

function list(items: string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function stripQuestion(q: string): string {
  return q.replace(/\s*\[y\/N\]\s*$/i, '').replace(/[?:\s]+$/, '');
}

/** Reads lines from stdin one at a time (one readline for the whole dialogue). */
async function lineReader(stdin: Readable): Promise<{ next(): Promise<string>; close(): void }> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: stdin, terminal: false });
  const queue: string[] = [];
  const waiting: ((s: string | undefined) => void)[] = [];
  let ended = false;
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  rl.once('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    next: () =>
      new Promise<string>((resolve) => {
        if (queue.length) return resolve(queue.shift()!);
        if (ended) return resolve('');
        waiting.push((s) => resolve(s ?? ''));
      }),
    close: () => rl.close(),
  };
}

/**
 * How a confirmation ends (ax-go's Confirm): `approved` (the bypass flag was given, or the user said
 * yes), `blocked` (the user said no or cancelled) or `prompt_required` (nobody could be asked: no
 * terminal, json mode, an agent or CI). Only `approved` returns; the other two throw
 * `confirmation_required` with `context.outcome` set, and `prompt_required` names the next step: the
 * same call with the bypass flag.
 */
export type ConfirmOutcome = 'approved' | 'blocked' | 'prompt_required';

/**
 * `ctx.confirm(question, bypassFlag)`: returns when the bypass flag is set (default: the command's
 * `confirmationFlag`, else the global `--yes`); else asks the MCP client (a one-field elicitation
 * form) when it declared elicitation, or the person at the terminal when the run is interactive and
 * in human mode; else throws `confirmation_required` (outcome `prompt_required`) at once, whose
 * `next` is the same call with the bypass flag — never a prompt nobody can answer.
 */
export async function confirm(
  scope: AskScope,
  question: string,
  bypassFlag?: string,
  options?: AskOptions,
): Promise<void> {
  const { ctx, label } = scope;
  const bypass = bypassFlag ?? ctx.command.confirmationFlag ?? 'yes';
  if (ctx.flags[camelCase(bypass)] === true) return;
  const mcp = !label(bypass).startsWith('-');
  // over MCP and --args-json the flag confirms only where it is a property of the tool (the command's
  // confirmationFlag: docs/mcp-server.md#asking-the-client-confirm-elicit-sample)
  const settable = !mcp || toolPropertyIndex(ctx.command).get(label(bypass))?.flag?.name === bypass;
  const refuse = (outcome: Exclude<ConfirmOutcome, 'approved'>, why: string, action?: string) =>
    new AxError('confirmation_required', `${stripQuestion(question)}: confirmation required ${why}`, {
      fix: !settable
        ? `No argument of this call confirms it (${JSON.stringify(label(bypass))} is ` +
          `not a property of the tool): only the user can, when asked through a client ` +
          `that declares elicitation, or by running the command line with its flags and --${bypass} ` +
          `(not --args-json).`
        : mcp
          ? `Set the property ${JSON.stringify(label(bypass))} to true to confirm (only with the user's consent).`
          : `Pass ${label(bypass)} to confirm (only with the user's consent).`,
      context: {
        reason: 'confirmation',
        outcome,
        bypass_flag: settable ? label(bypass) : `--${bypass}`,
        ...(action ? { action } : {}),
      },
      next:
        outcome === 'prompt_required' && settable
          ? steps(scope.retry({ [bypass]: true }, [], `confirm with ${label(bypass)}, only with the user's consent`))
          : undefined,
    });
  const elicit = scope.interaction?.elicit;
  if (elicit) {
    const schema: ElicitSchema = {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Confirm', description: stripQuestion(question), default: false },
      },
      required: ['confirm'],
    };
    let answer: ElicitAnswer;
    try {
      answer = await scope.race(elicit(question, schema, ctx.signal, options?.key ?? 'confirm'));
    } catch (e) {
      // the client refused to ask (an error of its own, whatever its code): as a decline, never a retryable error
      if (e instanceof AxError && e.kind === 'declined')
        throw refuse('blocked', 'and the client refused to ask it', 'error');
      throw e;
    }
    if (answer.action === 'accept' && answer.content?.confirm === true) return;
    if (answer.action === 'cancel') throw refuse('blocked', 'and the user cancelled it', 'cancel');
    throw refuse('blocked', 'and the user declined it', answer.action === 'accept' ? 'accept_false' : 'decline');
  }
  if (!ctx.interactive) throw refuse('prompt_required', `and ${scope.notInteractive()}`);
  if (ctx.mode === 'json') throw refuse('prompt_required', 'and prompts are off in json (agent) mode');
  ctx.stderr.write(`${question} `);
  const lines = await lineReader(ctx.stdin);
  try {
    const answer = await scope.race(lines.next());
    if (!/^y(es)?$/i.test(answer.trim())) throw refuse('blocked', 'and it was declined');
  } finally {
    lines.close();
  }
}

/**
 * `ctx.elicit(schema, message)`: the values of a small form. Fields given as flags of the command (a
 * flag whose long name is the field name, set on this call) are taken from the flags; the others are
 * asked — through the MCP client when it declared elicitation, else at a terminal (human mode). With
 * neither, optional fields take their defaults and a missing required field throws `input_required`
 * whose fix names the flags (or MCP properties) to pass.
 * @returns the answered values (plus those from flags), keyed by field name.
 * @throws AxError `declined` (the user declined or cancelled the form), `input_required`,
 *   `validation_error` (an answer that does not fit its field); TypeError for a malformed schema.
 */
export async function elicit(
  scope: AskScope,
  schema: ElicitSchema,
  message: string,
  options?: AskOptions,
): Promise<Record<string, Value>> {
  checkSchema(schema);
  const { ctx, label, flags } = scope;
  const given: Record<string, Value> = {};
  const missing: string[] = [];
  for (const name of Object.keys(schema.properties)) {
    const key = camelCase(name);
    if (flags.has(name) && ctx.changed(name) && ctx.flags[key] !== undefined) given[name] = ctx.flags[key] as Value;
    else missing.push(name);
  }
  if (missing.length === 0) return given;
  const rest: ElicitSchema = {
    type: 'object',
    properties: Object.fromEntries(missing.map((n) => [n, schema.properties[n]!])),
    ...(schema.required?.some((r) => missing.includes(r))
      ? { required: schema.required.filter((r) => missing.includes(r)) }
      : {}),
  };
  const ask = scope.interaction?.elicit;
  if (ask) {
    const answer: ElicitAnswer = await scope.race(ask(message, rest, ctx.signal, options?.key ?? 'elicit'));
    if (answer.action !== 'accept') {
      throw new AxError(
        'declined',
        `${stripQuestion(message)}: the user ${answer.action === 'cancel' ? 'cancelled' : 'declined'} the form`,
        {
          fix: 'Ask the user what they want instead; do not retry without their consent.',
          context: { action: answer.action, fields: missing },
        },
      );
    }
    const content = answer.content ?? {};
    for (const name of missing) {
      const f = rest.properties[name]!;
      const v = content[name];
      if (v === undefined) {
        if (rest.required?.includes(name))
          throw new AxError('validation_error', `the answer to the form has no value for the required field ${name}`, {
            fix: 'Fill in every required field.',
            context: { reason: 'invalid_answer', field: name },
          });
        if (f.default !== undefined) given[name] = f.default;
        continue;
      }
      const why = misfit(f, v);
      if (why)
        throw new AxError('validation_error', `invalid answer for ${name}: ${why}`, {
          fix: 'Answer the form with values that fit its fields.',
          context: { reason: 'invalid_answer', field: name },
        });
      given[name] = v;
    }
    return given;
  }
  if (ctx.interactive && ctx.mode !== 'json') {
    ctx.stderr.write(`${message}\n`);
    const lines = await lineReader(ctx.stdin);
    try {
      for (const name of missing) {
        const f = rest.properties[name]!;
        ctx.stderr.write(prompt(name, f));
        const v = parseTyped(name, f, await scope.race(lines.next()));
        if (v === undefined && rest.required?.includes(name))
          throw new AxError('validation_error', `no answer for the required field ${name}`, {
            fix: 'Run the command again and answer every required field.',
            context: { reason: 'invalid_answer', field: name },
          });
        if (v !== undefined) given[name] = v;
      }
    } finally {
      lines.close();
    }
    return given;
  }
  // Nobody to ask: optional fields take their defaults; a required one missing is an error naming
  // the flags (or MCP properties) that would have given it.
  const needed = missing.filter((n) => schema.required?.includes(n));
  if (needed.length === 0) {
    for (const n of missing)
      if (schema.properties[n]!.default !== undefined) given[n] = schema.properties[n]!.default as Value;
    return given;
  }
  const asFlags = needed.filter((n) => flags.has(n));
  const noFlag = needed.filter((n) => !flags.has(n));
  const labels = asFlags.map((n) => label(n));
  const mcp = !label('x').startsWith('-');
  const nobody = scope.notInteractive();
  const where = ctx.interactive
    ? 'prompts are off in json (agent) mode'
    : nobody === NO_TERMINAL
      ? 'no terminal or MCP elicitation is available to ask'
      : nobody;
  const fix =
    noFlag.length === 0
      ? mcp
        ? `Set the ${labels.length > 1 ? 'properties' : 'property'} ${list(labels.map((l) => JSON.stringify(l)))}.`
        : `Pass ${list(labels)}.`
      : `Run it on a terminal or from an MCP client that supports elicitation: ${list(noFlag)} ` +
        `cannot be given ${mcp ? 'as properties' : 'as flags'}${labels.length ? `; ${mcp ? 'set' : 'pass'} ${list(labels)} for the rest` : ''}.`;
  throw new AxError('input_required', `${stripQuestion(message)}: input required (${list(needed)}) and ${where}`, {
    fix,
    context: { reason: 'input', fields: needed, ...(labels.length ? { flags: labels } : {}) },
    next: noFlag.length === 0 ? steps(scope.retry({}, asFlags, `give ${list(labels)} (fill in each <…>)`)) : undefined,
  });
}

/**
 * `ctx.sample(request)`: asks the MCP client's model (`sampling/createMessage`) when the client
 * declared sampling. @throws AxError `sampling_unavailable` anywhere else (the command line, a client
 * without the capability, a stateless HTTP server), `declined` when the client refused.
 */
export async function sample(
  scope: AskScope,
  request: SampleRequest | string,
  options?: AskOptions,
): Promise<SampleResult> {
  const req: SampleRequest = typeof request === 'string' ? { messages: request } : request;
  if (!req || (typeof req.messages !== 'string' && !Array.isArray(req.messages)))
    throw new TypeError('ctx.sample: messages must be a string or an array of {role, text}');
  const full: SampleRequest = { ...req, maxTokens: req.maxTokens ?? DEFAULT_MAX_TOKENS };
  const ask = scope.interaction?.sample;
  if (!ask) {
    throw new AxError(
      'sampling_unavailable',
      'this command asks a language model, and this run has no MCP client that offers sampling',
      {
        fix:
          'Call it as an MCP tool from a client that declares the ' +
          'sampling capability (over stdio or a stateful HTTP session).',
      },
    );
  }
  return scope.race(ask(full, scope.ctx.signal, options?.key ?? 'sample'));
}

/**
 * `ctx.roots()`: the MCP client's roots (`roots/list`) when the client declared roots; an empty
 * list anywhere else. @throws AxError `declined` when the client refused, `timeout`.
 */
export async function roots(scope: AskScope, options?: AskOptions): Promise<Root[]> {
  const ask = scope.interaction?.roots;
  if (!ask) return [];
  return scope.race(ask(scope.ctx.signal, options?.key ?? 'roots'));
}
