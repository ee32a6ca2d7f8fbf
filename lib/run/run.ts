/**
 * Running one parsed invocation: help and version, the flag sources and `--explain`, the checks
 * (Args validator, required flags, flag groups, json flag schemas), then the handler (handler.ts:
 * replay, hooks, the output contract; its context is built by context.ts, its environment by
 * run-env.ts, its abort semantics are settle.ts's), and the error line of a failure. Shared by the
 * CLI (`execute`) and the MCP bridge, which both hand it an {@link Invocation}. Source: docs/contract.md.
 *
 * Layer `lib/run/` (the highest): running a tree — `execute`, `main`, the in-process invoke used by
 * the MCP bridge, the run context handed to handlers, version resolution and human rendering. It
 * owns every byte written, and may import every layer below; only `lib/index.ts` and `mcp/` import
 * it.
 */
import { errorEnvelope, humanError, MID_LINE, successLine, type ErrorEnvelope } from '../contract/envelope.ts';
import {
  allProvenance,
  explainTarget,
  explainText,
  resolveSources,
  type FlagProvenance,
} from '../config/provenance.ts';
import { ALREADY_SHOWN, toAxError, type AxError } from '../contract/errors.ts';
import { isHelpFlag, type Flag } from '../tree/flags.ts';
import { kindOf } from '../tree/flag-kinds/index.ts';
import { helpText, useLine } from '../help/help.ts';
import { findCommand, type Invocation } from '../parse/parse.ts';
import { writeOutcome } from './output.ts';
import { otelDebug, spanLine } from '../observe/trace.ts';
import { helpFor } from '../builtins/builtins.ts';
import { isReplayed, withContext } from './failures.ts';
import { proxyVariables } from '../platform/env-proxy.ts';
import { flagLabel, validateInvocation } from '../parse/validate.ts';
import { runHandler, type RunOutcome } from './handler.ts';
import { checkFieldsBefore, requestedFields } from './fields.ts';
import { pageRequestOf } from './paging.ts';
import { baseMeta } from './run-meta.ts';
import type { RunEnv } from './run-env.ts';
import { noteSecrets, readSecrets, reportedSecrets } from './secrets.ts';
import { redactError, redactText } from '../contract/redact.ts';

export type { RunOutcome } from './handler.ts';

/** A failure as reported: its exit code (never 0), the error, and in json mode the error line's object. */
export interface Failure {
  exitCode: number;
  error: AxError;
  /** The object the error line printed (json mode only). */
  envelope?: ErrorEnvelope;
}

/**
 * Writes a failure per the contract (json: one error line on stderr; human: readable text) and
 * returns it as written: the AxError and, in json mode, the error line's object.
 */
export function reportFailure(thrown: unknown, env: RunEnv): Failure {
  // a secret flag's value is in no line the run writes, whoever put it in the error
  // and the credentials of a proxy URL, whoever quoted it (docs/contract.md#proxies)
  const secrets = reportedSecrets(env);
  let err = redactError(toAxError(thrown), secrets);
  // a network failure names the proxy the run was told to use, its credentials hidden (docs/contract.md#proxies)
  const proxy = err.kind === 'network_error' && err.context?.proxy === undefined ? proxyVariables(env.env) : undefined;
  if (proxy) err = withContext(err, { proxy });
  // what was printed last may not have ended its line (on stderr, or on a stdout that is the same
  // file: a terminal): the runner's lines start on their own
  if (env.stderr[MID_LINE]?.() || env.stdout[MID_LINE]?.()) void writeOutcome(env.stderr, '\n');
  // AX_OTEL_DEBUG's span goes first too: the error line must stay the last line of stderr
  if (!env.spanShown && otelDebug(env.env)) {
    env.spanShown = true;
    const end = { name: env.spanName ?? env.root.name, program: env.root.name, version: env.version() };
    const status = { exitCode: err.exitCode, errorKind: err.kind, description: err.message };
    void writeOutcome(env.stderr, spanLine(env.trace, { ...end, ...status }));
  }
  // a debugging stack goes first: the error line must stay the last line of stderr
  if (err.kind === 'internal_error' && env.env.AX_DEBUG && err.cause instanceof Error && err.cause.stack) {
    void writeOutcome(env.stderr, `${redactText(err.cause.stack, secrets ?? [])}\n`);
  }
  if (env.mode === 'json') {
    const envelope = errorEnvelope(err, {
      trace_id: env.traceId,
      tool: env.root.name,
      version: env.version(),
      startedAt: env.trace.startedAt,
      ...(isReplayed(err) ? { replayed: true as const } : {}),
    });
    void writeOutcome(env.stderr, `${JSON.stringify(envelope)}\n`);
    return { exitCode: err.exitCode, error: err, envelope };
  }
  // a person's front-ended program said it already, on their terminal: its exit status is the answer
  if ((err as { [ALREADY_SHOWN]?: boolean })[ALREADY_SHOWN] === true) return { exitCode: err.exitCode, error: err };
  let usage: string | undefined;
  if (err.usage) {
    const { command, rest } = findCommand(env.root, err.usage.split(/\s+/).slice(1));
    if (rest.length === 0) usage = useLine(command);
  }
  void writeOutcome(
    env.stderr,
    humanError(
      err,
      usage,
      err.kind === 'internal_error' && err.context?.reason !== 'unsupported_node' ? env.traceId : undefined,
    ),
  );
  return { exitCode: err.exitCode, error: err };
}

/** {@link reportFailure}, for a caller that needs only the exit code. */
export function reportError(thrown: unknown, env: RunEnv): number {
  return reportFailure(thrown, env).exitCode;
}

/**
 * Runs a parsed invocation to completion and writes its output. Usage errors, handler failures and
 * interruptions are reported here too; the returned outcome carries the exit code.
 */
/**
 * Checks every given `json` flag that declares a schema against it (ajv loads only then).
 * @returns undefined when there is none to check, else a promise that rejects with the AxError.
 * @throws AxError `validation_error` naming the flag as this invocation spells it.
 */
function checkJsonFlags(inv: Invocation): Promise<void> | undefined {
  let withSchema: Flag[] | undefined;
  const flags = inv.resolved.all;
  for (const n of inv.values.keys()) {
    const f = flags.get(n);
    if (f?.spec.schema && kindOf(f.spec).declaresSchema) (withSchema ??= []).push(f);
  }
  if (!withSchema) return undefined; // the common case: no promise, no import
  const checked = withSchema;
  return import('../parse/arguments.ts').then(({ checkJsonFlag }) => {
    for (const f of checked) checkJsonFlag(flagLabel(inv, f.name), f.spec, inv.values.get(f.name));
  });
}

export async function runInvocation(inv: Invocation, env: RunEnv): Promise<RunOutcome> {
  const cmd = inv.command;
  try {
    // the help flag: the injected one, or an author's own bool `help` flag (Cobra: it is the help flag)
    if (inv.values.get('help') === true && isHelpFlag(inv.resolved.all.get('help'))) {
      await writeOutcome(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    if (inv.helpTopic) {
      await writeOutcome(env.stdout, await helpFor(env.root, [...cmd.pathNames().slice(1), ...inv.helpTopic]));
      return { exitCode: 0, help: true };
    }
    if (cmd === env.root && inv.values.get('version') === true && inv.resolved.inForce('version')) {
      const v = env.version();
      // human mode: the root's versionTemplate (Cobra's SetVersionTemplate), else Cobra's default text
      const human = () =>
        cmd.versionTemplate
          ? cmd.versionTemplate({ name: cmd.name, version: v, command: cmd })
          : `${cmd.name} version ${v}\n`;
      await writeOutcome(
        env.stdout,
        env.mode === 'json' ? successLine({ name: cmd.name, version: v }, baseMeta(env, env.newKey())) : human(),
      );
      return { exitCode: 0, payload: { name: cmd.name, version: v } };
    }
    const warnings = [...inv.warnings];
    if (cmd.deprecated)
      warnings.unshift({
        code: 'deprecated_command',
        message: `Command ${JSON.stringify(cmd.name)} is deprecated, ${cmd.deprecated}`,
      });
    for (const w of warnings) env.stderr.write(`${w.message}\n`);
    // a secret on the command line is refused before anything else reads or shows the values
    const secrets = readSecrets(inv, env);
    if (secrets) await secrets;
    if (inv.values.has('explain') && inv.resolved.inForce('explain'))
      return await explain(inv, env, await allProvenance(inv, env.env));
    const sources = resolveSources(inv, env.env);
    const provenance = sources && (await sources);
    noteSecrets(inv, env);
    // Args validator, required flags and flag groups, then (in runHandler) the pre-run hooks, run and
    // the post-run hooks. Cobra checks required flags and groups after the pre-run hooks; ax-ts checks
    // them first on every path, as MCP and --args-json calls are checked against the inputSchema
    // before anything runs, so no hook ever runs for a call refused as malformed
    // (docs/cobra-differences.md).
    validateInvocation(inv);
    const fields = inv.resolved.inForce('fields') ? requestedFields(inv.values.get('fields')) : undefined;
    if (fields && cmd.runnable()) checkFieldsBefore(cmd, fields, flagLabel(inv, 'fields'));
    if (cmd.runnable()) pageRequestOf(inv); // --limit and --cursor of a paged command, checked before anything runs
    const checking = checkJsonFlags(inv);
    if (checking) await checking;
    if (!cmd.runnable()) {
      await writeOutcome(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    return await runHandler(inv, env, warnings, provenance);
  } catch (e) {
    return reportFailure(e, env);
  }
}

/** `--explain <flag>`: the provenance of one flag (human text, or an envelope with all of them in meta.provenance). */
async function explain(inv: Invocation, env: RunEnv, provenance: Record<string, FlagProvenance>): Promise<RunOutcome> {
  const target = explainTarget(inv, String(inv.values.get('explain')));
  const label = flagLabel(inv, target.name);
  const p = provenance[label]!;
  const data = { flag: label, ...p };
  if (env.mode === 'json')
    await writeOutcome(env.stdout, successLine(data, { ...baseMeta(env, env.newKey()), provenance }));
  else await writeOutcome(env.stdout, explainText(label, p));
  return { exitCode: 0, payload: data };
}
