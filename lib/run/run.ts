/**
 * Running one parsed invocation: checks, replay, hooks and the handler (its context is built by
 * context.ts, its environment by run-env.ts, its abort semantics are settle.ts's), and the output
 * contract (envelope, NDJSON stream, human rendering, error line). Shared by the CLI (`execute`)
 * and the MCP bridge, which both hand it an {@link Invocation}. Source: SPEC §2.
 *
 * Layer `lib/run/` (the highest): running a tree — `execute`, `main`, the in-process invoke used by
 * the MCP bridge, the run context handed to handlers, version resolution and human rendering. It
 * owns every byte written, and may import every layer below; only `lib/index.ts` and `mcp/` import
 * it.
 */
import { errorLine, humanError, successLine, type SuccessMeta } from '../contract/envelope.ts';
import { explainTarget, explainText, resolveSources, type FlagProvenance } from './provenance.ts';
import type { RunContext } from '../tree/command.ts';
import { AxError, toAxError } from '../contract/errors.ts';
import { camelCase, type Flag } from '../tree/flags.ts';
import { flagsOf, injectedInForce, replays } from '../tree/flagset.ts';
import { helpText, useLine } from '../help/help.ts';
import { findCommand, type Invocation } from '../parse/parse.ts';
import { renderDefault } from './render.ts';
import { isStream, renderItem, toAsync, write, writeReplayed } from './output.ts';
import { exitCodeSet, interruptedFix, isReplayed, replayedError, unrecorded } from './failures.ts';
import type { ReplayGate } from './replay.ts';
import { flagLabel, flagValues, validateInvocation } from '../parse/validate.ts';
import type { ResourceContent } from '../tree/declarations.ts';
import { hooksOf } from './hooks.ts';
import { interrupted, raceAbort, settle } from './settle.ts';
import { createRunContext } from './context.ts';
import type { RunEnv } from './run-env.ts';

/** What a run produced, for callers that need more than the exit code (the MCP bridge). */
export interface RunOutcome {
  exitCode: number;
  /** The payload (success, non-stream). */
  payload?: unknown;
  /** Items written (stream). */
  items?: unknown[];
  /** Whether the command produced a stream. */
  stream?: boolean;
  /** The failure, when exitCode ≠ 0. */
  error?: AxError;
  /** Whether help text was printed instead of running. */
  help?: boolean;
  /** Declared resources the handler attached (`ctx.attach`), in order, read for their URIs. */
  attachments?: ResourceContent[];
}

/**
 * Writes a failure per the contract (json: one error line on stderr; human: readable text) and
 * returns its exit code (never 0).
 */
export function reportError(thrown: unknown, env: RunEnv): number {
  const err = toAxError(thrown);
  // a debugging stack goes first: the error line must stay the last line of stderr
  if (err.kind === 'internal_error' && env.env.AX_DEBUG && err.cause instanceof Error && err.cause.stack) {
    env.stderr.write(`${err.cause.stack}\n`);
  }
  if (env.mode === 'json') {
    env.stderr.write(errorLine(err, { trace_id: env.traceId, tool: env.root.name, version: env.version(), ...(isReplayed(err) ? { replayed: true as const } : {}) }));
  } else {
    let usage: string | undefined;
    if (err.usage) {
      const { command, rest } = findCommand(env.root, err.usage.split(/\s+/).slice(1));
      if (rest.length === 0) usage = useLine(command);
    }
    env.stderr.write(humanError(err, usage, err.kind === 'internal_error' ? env.traceId : undefined));
  }
  return err.exitCode;
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
  const flags = flagsOf(inv.command);
  for (const n of inv.values.keys()) {
    const f = flags.get(n);
    if (f?.spec.type === 'json' && f.spec.schema) (withSchema ??= []).push(f);
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
    if (inv.values.get('help') === true && flagsOf(cmd).get('help')?.spec.type === 'bool') {
      await write(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    if (cmd === env.root && inv.values.get('version') === true && injectedInForce(cmd, 'version')) {
      const v = env.version();
      // human mode: the root's versionTemplate (Cobra's SetVersionTemplate), else Cobra's default text
      const human = () => (cmd.versionTemplate ? cmd.versionTemplate({ name: cmd.name, version: v, command: cmd }) : `${cmd.name} version ${v}\n`);
      await write(env.stdout, env.mode === 'json' ? successLine({ name: cmd.name, version: v }, baseMeta(env, env.newKey())) : human());
      return { exitCode: 0, payload: { name: cmd.name, version: v } };
    }
    const warnings = [...inv.warnings];
    if (cmd.deprecated) warnings.unshift(`Command ${JSON.stringify(cmd.name)} is deprecated, ${cmd.deprecated}`);
    for (const w of warnings) env.stderr.write(`${w}\n`);
    const sources = resolveSources(inv, env.env);
    const provenance = sources && (await sources);
    if (provenance && inv.values.has('explain') && injectedInForce(cmd, 'explain')) return await explain(inv, env, provenance);
    // Args validator, required flags and flag groups, then (in runHandler) the pre-run hooks, run and
    // the post-run hooks. Cobra checks required flags and groups after the pre-run hooks; ax-ts checks
    // them first on every path, as MCP and --args-json calls are checked against the inputSchema
    // before anything runs, so no hook ever runs for a call refused as malformed
    // (docs/cobra-differences.md).
    validateInvocation(inv);
    const checking = checkJsonFlags(inv);
    if (checking) await checking;
    if (!cmd.runnable()) {
      await write(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    return await runHandler(inv, env, warnings, provenance);
  } catch (e) {
    const error = toAxError(e);
    return { exitCode: reportError(error, env), error };
  }
}

function baseMeta(env: RunEnv, key: string): SuccessMeta {
  return { trace_id: env.traceId, span_id: env.spanId, idempotency_key: key };
}

/** `--explain <flag>`: the provenance of one flag (human text, or an envelope with all of them in meta.provenance). */
async function explain(inv: Invocation, env: RunEnv, provenance: Record<string, FlagProvenance>): Promise<RunOutcome> {
  const target = explainTarget(inv, String(inv.values.get('explain')));
  const label = flagLabel(inv, target.name);
  const p = provenance[label]!;
  const data = { flag: label, ...p };
  if (env.mode === 'json') await write(env.stdout, successLine(data, { ...baseMeta(env, env.newKey()), provenance }));
  else await write(env.stdout, explainText(label, p));
  return { exitCode: 0, payload: data };
}

async function runHandler(inv: Invocation, env: RunEnv, warnings: string[], provenance?: Record<string, FlagProvenance>): Promise<RunOutcome> {
  const cmd = inv.command;
  const flags = flagValues(inv);
  const dryRun = injectedInForce(cmd, 'dry-run') && flags.dryRun === true;
  const rawKey = injectedInForce(cmd, 'idempotency-key') && typeof flags.idempotencyKey === 'string' ? flags.idempotencyKey : '';
  const givenKey = rawKey.trim() === '' ? '' : rawKey; // opaque: kept as given; blank means none
  const key = givenKey || env.newKey();
  const scope = createRunContext(inv, env, warnings, { dryRun, key, givenKey, flags });
  const { ctx, stdout, stderr, label, would, attachments } = scope;
  const meta = (): SuccessMeta => {
    const m = baseMeta(env, key);
    if (attachments.length) m.attached = attachments.map((a) => a.uri);
    if (dryRun) m.dry_run = true;
    if (warnings.length) m.warnings = [...warnings];
    if (would.length) m.would = [...would];
    if (provenance) m.provenance = provenance;
    return m;
  };
  const replaying = givenKey !== '' && !dryRun && replays(cmd);
  let gate: ReplayGate | undefined;
  let running: Promise<unknown> | undefined;
  try {
    if (replaying) {
      const { openGate, fingerprint } = await import('./replay.ts');
      const builtin = [...flagsOf(cmd).values()].filter((f) => f.builtin).map((f) => camelCase(f.name));
      const bound = Object.fromEntries(Object.entries(flags).filter(([k]) => !builtin.includes(k)));
      const opened = await openGate({
        scope: { program: env.root.name, command: cmd.commandPath(), key: givenKey },
        fingerprint: await fingerprint({ flags: bound, args: ctx.args }),
        settings: env.replay,
        env: env.env,
        signal: env.signal,
        keyLabel: label('idempotency-key'),
      });
      if ('replay' in opened) {
        const rec = opened.replay;
        if (rec.kind === 'error') throw replayedError(rec);
        return { exitCode: 0, ...(await writeReplayed(rec, cmd, ctx, { mode: env.mode, stdout, stderr }, meta())) };
      }
      gate = opened.gate;
    }
    if (env.signal.aborted) throw interrupted(env.signal);
    const hooks = hooksOf(cmd);
    const call = (fn: (c: RunContext) => unknown) => settle(() => fn(ctx), env.signal, cmd.finishOnSigterm);
    const postHooks = async () => {
      for (const h of hooks.post) await call(h);
    };
    for (const h of hooks.pre) await call(h);
    const exitCodeBefore = process.exitCode;
    // `running` is the handler's own promise: after an interrupt, a late success is still recorded
    const result = await call((c) => {
      const r = cmd.run!(c);
      running = Promise.resolve(r);
      return r;
    });
    const failed = exitCodeSet(exitCodeBefore, result);
    if (failed) throw failed;
    // post hooks run before a document is written, so one that fails leaves no success envelope behind;
    // a stream's run after its last item
    const streaming = isStream(result) || cmd.output?.kind === 'stream';
    if (!streaming && hooks.post.length) await postHooks();
    if (cmd.output?.kind === 'opaque') {
      if (result instanceof Uint8Array) {
        if (env.stdout.isTTY === true) {
          throw new AxError('validation_error', `refusing to write ${result.byteLength} bytes of ${cmd.output.mediaType ?? 'binary data'} to a terminal`, {
            fix: 'Redirect stdout to a file or a pipe (> out.bin).',
            context: { reason: 'binary_to_terminal', media_type: cmd.output.mediaType ?? null },
          });
        }
        // bytes are not recorded for replay: a retry with the key runs again (and says so)
        if (gate) {
          await gate.release();
          gate = undefined;
          ctx.warn(unrecorded(label));
        }
        await write(stdout, result);
      } else {
        const text = result === undefined || result === null ? '' : typeof result === 'string' ? result : `${JSON.stringify(result)}\n`;
        if (gate && !(await gate.complete({ exitCode: 0, kind: 'opaque', text }))) ctx.warn(unrecorded(label));
        await write(stdout, text);
      }
      return { exitCode: 0, payload: result, attachments };
    }
    if (isStream(result) || cmd.output?.kind === 'stream') {
      const items: unknown[] | undefined = env.collectItems ? [] : undefined; // only the MCP bridge needs them all
      const texts: string[] | undefined = gate ? [] : undefined; // what a replay writes again
      const iterable = (result ?? []) as AsyncIterable<unknown>;
      const it = (Symbol.asyncIterator in iterable ? iterable : toAsync(iterable as Iterable<unknown>))[Symbol.asyncIterator]();
      try {
        for (let n = 1; ; n++) {
          const step = await raceAbort(it.next(), env.signal);
          if (step.done) break;
          items?.push(step.value);
          texts?.push(JSON.stringify(step.value === undefined ? null : step.value));
          await write(stdout, env.mode === 'json' ? successLine(step.value, meta()) : renderItem(cmd, step.value, ctx));
          // A generator that never awaits I/O would starve the event loop: signals and a closed stdout
          // (EPIPE) could never be noticed. Let the loop turn now and then.
          if (n % 64 === 0) await new Promise((r) => setImmediate(r));
          if (env.signal.aborted) throw interrupted(env.signal);
        }
      } finally {
        void it.return?.().catch(() => {}); // let the generator run its finally blocks
      }
      const late = exitCodeSet(exitCodeBefore, items);
      if (late) throw late;
      await postHooks();
      if (gate && !(await gate.complete({ exitCode: 0, kind: 'stream', items: texts }))) ctx.warn(unrecorded(label));
      return { exitCode: 0, items: items ?? [], stream: true, attachments };
    }
    // recorded before it is written: once a caller can see the result, a retry replays it
    if (gate && !(await gate.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(result === undefined ? null : result) }))) ctx.warn(unrecorded(label));
    if (env.mode === 'json') {
      const writing = write(stdout, successLine(result, meta()));
      if (writing) await writing;
    }
    else {
      const text = cmd.render ? cmd.render(result, ctx) : renderDefault(result);
      if (typeof text === 'string') await write(stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
      if (dryRun) stderr.write(`Dry run: nothing was changed.${would.length ? ` Would: ${would.join('; ')}.` : ''}\n`);
    }
    return { exitCode: 0, payload: result, attachments };
  } catch (e) {
    let err = toAxError(e);
    if (err.kind === 'interrupted') err = interruptedFix(err, cmd, replaying, label);
    if (gate) {
      if (err.kind === 'interrupted' && running) {
        // the handler may still finish its work: record a late success so a retry replays it
        const g = gate;
        running.then(
          (v) => void (isStream(v) || (cmd.output?.kind ?? 'data') !== 'data' ? g.release() : g.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(v === undefined ? null : v) })),
          () => void g.release(),
        );
      } else if (err.retryable || err.kind === 'interrupted') await gate.release();
      else await gate.complete({ exitCode: err.exitCode, kind: 'error', error: err.toJSON() });
    }
    throw err;
  } finally {
    scope.close();
  }
}
