/**
 * Running a command's handler once its invocation has passed every check (run.ts): the replay gate
 * of an idempotency key, the run hooks, the handler, and writing what it produced — a document, a
 * stream of items (NDJSON in json mode) or opaque bytes — per the output contract. Source: docs/contract.md;
 * Cobra's hook order (hooks.ts).
 *
 * Shape (docs/performance.md): {@link runHandler} is the path every run and every MCP call takes; the rare
 * branches (a replayed retry, a stream, opaque output, a failure with a gate open) are functions of
 * their own, so the hot async function keeps few live values across its awaits (each await saves
 * them all) and V8 compiles a small function.
 */
import { LINE_OPEN, successLine } from '../contract/envelope.ts';
import { checkDryRun, dryRunVouched } from './run-meta.ts';
import type { FlagProvenance } from '../config/provenance.ts';
import type { Command, RunContext } from '../tree/command.ts';
import type { Pagination, Warning } from '../contract/envelope.ts';
import { AxError, CONTRACT_REFUSALS, toAxError } from '../contract/errors.ts';
import { redactError } from '../contract/redact.ts';
import { reportedSecrets } from './secrets.ts';
import { camelCase } from '../tree/flags.ts';
import type { Invocation } from '../parse/parse.ts';
import { renderDefault } from './render.ts';
import { isStream, renderItem, toAsync, write, writeOutcome, writeReplayed } from './output.ts';
import {
  exitCodeSet,
  interruptedFix,
  replayedError,
  RESULT_MAX_CHARS,
  badTimeout,
  resultTooLarge,
  strictFirst,
  timeoutError,
  unrecorded,
  withCompletedSteps,
  withReauth,
} from './failures.ts';
import { checkOutput } from '../parse/output-check.ts';
import { fieldsOf, fieldsWarning, replayedFields, selectFields, shownFields } from './fields.ts';
import { pageFooter } from './paging.ts';
import { PAGING_FLAGS } from '../tree/paging.ts';
import { withDoneItemsFix, withItemResults } from './items.ts';
import type { ReplayRecord } from '../store/idempotency.ts';
import { interrupted, raceAbort, settle } from './settle.ts';
import type { HandlerScope } from './run-state.ts';
import type { RunEnv } from './run-env.ts';
import { HandlerRun, type Hooks, type Replay, type RunOutcome } from './handler-run.ts';

export type { RunOutcome } from './handler-run.ts';

/**
 * Runs the handler of a checked invocation (with its hooks and the replay gate of its idempotency
 * key) and writes its output. Failures are thrown as AxErrors, already recorded for replay.
 *
 * What follows the handler waits for it even when it returns a value at once (`await`): a
 * callback the handler queued just before returning (a `.then`, `queueMicrotask`) still runs
 * first, so what it does (`ctx.warn`, `ctx.progress`, `process.exitCode`) counts, as it always has.
 */
export async function runHandler(
  inv: Invocation,
  env: RunEnv,
  warnings: Warning[],
  provenance?: Record<string, FlagProvenance>,
): Promise<RunOutcome> {
  const h = new HandlerRun(inv, env, warnings, provenance);
  const { cmd, scope, replay, hooks } = h;
  // --timeout: a deadline of the run, but not of a command that runs until signalled (a server:
  // mcp-server hands its --timeout to each call it serves instead)
  const given = inv.resolved.inForce('timeout') ? h.flags.timeout : undefined;
  const timeout = !cmd.finishOnSigterm ? given : undefined;
  const endDeadline =
    typeof timeout === 'number' && timeout > 0
      ? env.deadline(timeout, timeoutError(timeout, scope.label, cmd))
      : undefined;
  try {
    if (typeof given === 'number' && !(given > 0)) throw badTimeout(given, scope.label('timeout'));
    const ctx = scope.ctx;
    h.strictFailure(false); // warnings met before anything ran (deprecations): nothing changes
    // the pre-run hooks come first, even before a replay is served: they are where a program checks
    // credentials or preconditions, and a retry that fails them is refused like any other call
    if (hooks.pre.length) {
      if (env.aborted()) throw interrupted(env.signal);
      for (const hook of hooks.pre) await settle(hook, ctx, env, cmd.finishOnSigterm);
    }
    if (replay) {
      const replayed = await openReplay(h, replay);
      if (replayed) return replayed;
    }
    if (env.aborted()) throw interrupted(env.signal);
    const exitCodeBefore = process.exitCode;
    const run = cmd.run!;
    const kind = cmd.output?.kind;
    const result = await settle(
      replay
        ? (c: RunContext) => {
            const r = run(c);
            replay.running = Promise.resolve(r);
            return r;
          }
        : run,
      ctx,
      env,
      cmd.finishOnSigterm,
    );
    const failed = exitCodeSet(exitCodeBefore, result);
    if (failed) throw failed;
    if (kind !== 'stream' && !isStream(result)) {
      const checking = checkOutput(cmd, result);
      if (checking) await checking;
    }
    // post hooks run before a document is written, so one that fails leaves no success envelope behind;
    // a stream's run after its last item
    const streaming = kind === 'stream' || isStream(result);
    if (!streaming && hooks.post.length) await postHooks(hooks, ctx, env, cmd);
    if (!streaming) checkDryRun(h.dryRun, cmd, scope);
    // a paged command's answer is one page of the list (a stream or a non-list is the author's error)
    const data = h.page ? h.cutPage(result) : result;
    if (kind === 'opaque') {
      h.strictFailure(true);
      return await writeOpaque(result, replay, cmd, env, scope);
    }
    if (streaming) return await writeStream(result, replay, exitCodeBefore, hooks, h);
    h.strictFailure(true);
    const shown = fieldsOf(h) ? await shownFields(h, data) : data;
    // recorded before it is written: once a caller can see the result, a retry replays it
    if (replay?.gate && !(await replay.gate.complete(h.dataRecord(data))))
      ctx.warn(unrecorded(scope.label), { code: 'replay_not_recorded' });
    if (env.mode === 'json') {
      const writing = writeOutcome(scope.stdout, successLine(shown, h.meta()));
      if (writing) await writing;
    } else await writeHuman(data, h.dryRun && dryRunVouched(cmd, scope), cmd, scope, h.paged);
    return { exitCode: 0, payload: data, attachments: scope.attachments, pagination: h.paged?.pagination };
  } catch (e) {
    const err = strictFirst(e, h.strict, h.warnings, scope.label);
    throw await failure(err, cmd, replay, scope, reportedSecrets(env), (x) =>
      withReauth(x, inv, env.root, env.toolBase, env.toolVia),
    );
  } finally {
    endDeadline?.();
    // what ctx.spawn started ends with the run: before a failure is reported, and before the program exits
    if (scope.children) await scope.children.end();
    scope.close();
  }
}

/** The post-run hooks (postRun, then the persistent ones), each raced against the run's signal like the handler. */
async function postHooks(hooks: Hooks, ctx: RunContext, env: RunEnv, cmd: Command): Promise<void> {
  for (const hook of hooks.post) await settle(hook, ctx, env, cmd.finishOnSigterm);
}

/**
 * Opens the replay gate of the run's idempotency key. @returns the outcome of a recorded run written
 * again (a replayed retry), or undefined with `replay.gate` set (this run holds the key).
 * @throws the recorded failure of a replayed retry; the gate's errors (conflict, in progress).
 */
async function openReplay(h: HandlerRun, replay: Replay): Promise<RunOutcome | undefined> {
  const { cmd, env, scope, flags, givenKey } = h;
  const { openGate, fingerprint } = await import('../store/replay.ts');
  // the injected flags are no arguments, except a page's --limit and --cursor: another page is another call
  const builtin = [...h.inv.resolved.all.values()]
    .filter((f) => f.builtin && !(h.page && (PAGING_FLAGS as readonly string[]).includes(f.name)))
    .map((f) => camelCase(f.name));
  const bound = Object.fromEntries(Object.entries(flags).filter(([k]) => !builtin.includes(k)));
  // a blank cursor is no cursor: the first page, the same arguments as a call without one
  if (h.page && typeof bound.cursor === 'string' && bound.cursor.trim() === '') bound.cursor = undefined;
  const opened = await openGate({
    scope: { program: env.root.name, command: cmd.commandPath(), key: givenKey },
    fingerprint: await fingerprint({ flags: bound, args: scope.ctx.args }),
    settings: env.replay,
    env: env.env,
    signal: env.signal,
    keyLabel: scope.label('idempotency-key'),
    kinds: recordKinds(cmd),
  });
  if ('replay' in opened) {
    const rec = opened.replay;
    if (rec.kind === 'error') throw replayedError(rec);
    // a paged answer replays as the same page: its recorded meta.pagination, the same next step
    if (h.page && rec.pagination) h.setPagination(rec.pagination as unknown as Pagination);
    const written = await writeReplayed(
      rec,
      cmd,
      scope.ctx,
      { mode: env.mode, stdout: scope.stdout, stderr: scope.stderr },
      () => h.meta(),
      fieldsOf(h) &&
        (rec.kind === 'data'
          ? (v: unknown) => replayedFields(h, v)
          : (v: unknown) =>
              selectFields(cmd, v, fieldsOf(h)!, scope.label('fields'), fieldsWarning(h.warnings, h.scope.ctx))),
    );
    if (h.paged?.pagination.has_more && env.mode === 'human')
      void writeOutcome(scope.stderr, pageFooter(h.paged.pagination, h.paged.next));
    return { exitCode: 0, ...written, ...(h.paged ? { pagination: h.paged.pagination } : {}) };
  }
  replay.gate = opened.gate;
  return undefined;
}

/**
 * The record kinds a command writes: its output kind's (a data command's handler may return a
 * stream), and failures.
 */
function recordKinds(cmd: Command): ReplayRecord['kind'][] {
  const kind = cmd.output?.kind;
  return kind === 'stream'
    ? ['stream', 'error']
    : kind === 'opaque'
      ? ['opaque', 'error']
      : ['data', 'stream', 'error'];
}

/** Human mode: the command's `render`, else the default rendering; a dry run says so on stderr. */
async function writeHuman(
  result: unknown,
  dryRun: boolean,
  cmd: Command,
  scope: HandlerScope,
  paged?: HandlerRun['paged'],
): Promise<void> {
  const text = cmd.render ? cmd.render(result, scope.ctx) : renderDefault(result);
  // after a print that left its line unfinished, the rendering starts on a line of its own
  if (typeof text === 'string' && text !== '')
    await writeOutcome(
      scope.stdout,
      `${scope.stdout[LINE_OPEN]?.() ? '\n' : ''}${text}${text.endsWith('\n') ? '' : '\n'}`,
    );
  // a cut list is never silent: where the next page is, on stderr
  if (paged?.pagination.has_more) void writeOutcome(scope.stderr, pageFooter(paged.pagination, paged.next));
  if (dryRun)
    void writeOutcome(
      scope.stderr,
      `Dry run: nothing was changed.${scope.would.length ? ` Would: ${scope.would.join('; ')}.` : ''}\n`,
    );
}

/**
 * An opaque command's output: bytes as they are (never to a terminal; not recorded for replay, so a
 * retry with the key runs again and says so), anything else as text.
 * @throws AxError validation_error (reason binary_to_terminal) for bytes to a terminal.
 */
async function writeOpaque(
  result: unknown,
  replay: Replay | undefined,
  cmd: Command,
  env: RunEnv,
  scope: HandlerScope,
): Promise<RunOutcome> {
  const output = cmd.output!;
  if (result instanceof Uint8Array) {
    if (env.stdout.isTTY === true) {
      throw new AxError(
        'validation_error',
        `refusing to write ${result.byteLength} bytes of ${output.mediaType ?? 'binary data'} to a terminal`,
        {
          fix: 'Redirect stdout to a file or a pipe (> out.bin).',
          context: { reason: 'binary_to_terminal', media_type: output.mediaType ?? null },
        },
      );
    }
    if (replay?.gate) {
      await replay.gate.release();
      replay.gate = undefined;
      scope.ctx.warn(unrecorded(scope.label), { code: 'replay_not_recorded' });
    }
    await writeOutcome(scope.stdout, result);
  } else {
    const text =
      result === undefined || result === null
        ? ''
        : typeof result === 'string'
          ? result
          : `${JSON.stringify(result)}\n`;
    if (replay?.gate && !(await replay.gate.complete({ exitCode: 0, kind: 'opaque', text })))
      scope.ctx.warn(unrecorded(scope.label), { code: 'replay_not_recorded' });
    await writeOutcome(scope.stdout, text);
  }
  return { exitCode: 0, payload: result, attachments: scope.attachments };
}

/**
 * A stream's items, each checked against the output schema and written as it comes (an envelope
 * line in json mode, the item's text in human mode), raced against the run's signal; then the post
 * hooks, and the record for replay. Under `--strict` the items are held until the stream ends, and
 * written only when it ends without warnings; a stream that fails otherwise (an error, `--timeout`)
 * before any warning delivers them before its error, as without `--strict`.
 */
async function writeStream(
  result: unknown,
  replay: Replay | undefined,
  exitCodeBefore: typeof process.exitCode,
  hooks: Hooks,
  h: HandlerRun,
): Promise<RunOutcome> {
  const { cmd, env, scope } = h;
  const gate = replay?.gate;
  const ctx = scope.ctx;
  const items: unknown[] | undefined = env.collectItems ? [] : undefined; // only the MCP bridge needs them all
  let collected = 0; // characters of the collected items' lines, bounded by RESULT_MAX_CHARS
  const texts: string[] | undefined = gate ? [] : undefined; // what a replay writes again
  const held: string[] | undefined = h.strict ? [] : undefined;
  const fields = fieldsOf(h);
  const warn = fieldsWarning(h.warnings, h.scope.ctx);
  const iterable = (result ?? []) as AsyncIterable<unknown>;
  const it = (Symbol.asyncIterator in iterable ? iterable : toAsync(iterable as Iterable<unknown>))[
    Symbol.asyncIterator
  ]();
  try {
    for (let n = 1; ; n++) {
      const step = await raceAbort(it.next(), env.signal);
      if (step.done) break;
      const checking = checkOutput(cmd, step.value, n - 1);
      if (checking) await checking;
      texts?.push(JSON.stringify(step.value === undefined ? null : step.value));
      const line =
        env.mode === 'json'
          ? successLine(
              fields ? selectFields(cmd, step.value, fields, h.scope.label('fields'), warn) : step.value,
              h.meta(),
            )
          : renderItem(cmd, step.value, ctx);
      if (items && (collected += line.length) > RESULT_MAX_CHARS) throw resultTooLarge(n - 1);
      items?.push(step.value);
      if (held) held.push(line);
      else await write(scope.stdout, line);
      // A generator that never awaits I/O would starve the event loop: signals and a closed stdout
      // (EPIPE) could never be noticed. Let the loop turn now and then.
      if (n % 64 === 0) await new Promise((r) => setImmediate(r));
      if (env.aborted()) throw interrupted(env.signal);
    }
  } catch (e) {
    if (held && !h.warnings.length) for (const line of held) await write(scope.stdout, line);
    throw e;
  } finally {
    void it.return?.().catch(() => {}); // let the generator run its finally blocks
  }
  const late = exitCodeSet(exitCodeBefore, items);
  if (late) throw late;
  await postHooks(hooks, ctx, env, cmd);
  checkDryRun(h.dryRun, cmd, scope);
  if (held) {
    h.strictFailure(true);
    for (const line of held) await write(scope.stdout, line);
  }
  if (gate && !(await gate.complete({ exitCode: 0, kind: 'stream', items: texts })))
    ctx.warn(unrecorded(scope.label), { code: 'replay_not_recorded' });
  return { exitCode: 0, items: items ?? [], stream: true, attachments: scope.attachments };
}

/**
 * Whether a key records this failure (docs/contract.md#idempotency-keys-and-replayed-retries): what
 * the command did — its own failure — is recorded; a retryable failure, an interrupt, a network
 * failure (the environment's, even an untrusted certificate whose fix is a retry with
 * NODE_EXTRA_CA_CERTS) and the contract's own refusals ({@link CONTRACT_REFUSALS}) are not, so a
 * retry or the amended call runs.
 */
function recordsFailure(err: AxError): boolean {
  const notDone = ['interrupted', 'timeout', 'network_error'];
  return !err.retryable && !notDone.includes(err.kind) && !CONTRACT_REFUSALS.has(err.kind);
}

/**
 * The run's failure as the AxError to report, after recording it for replay: a failure the key does
 * not record ({@link recordsFailure}) releases the key (a late success of an interrupted handler is
 * still recorded), any other is recorded so a retry gets the same error.
 */
async function failure(
  e: unknown,
  cmd: Command,
  replay: Replay | undefined,
  scope: HandlerScope,
  secrets: readonly string[] | undefined,
  reauth: (err: AxError) => AxError,
): Promise<AxError> {
  // redacted before it is recorded (docs/security.md#secret-flags); a stop keeps the items done (items.ts)
  let err = redactError(withItemResults(withCompletedSteps(toAxError(e), scope.steps), scope.itemResults), secrets);
  if (err.kind === 'interrupted') err = interruptedFix(err, cmd, replay !== undefined, scope.label);
  err = reauth(withDoneItemsFix(err));
  const gate = replay?.gate;
  if (gate) {
    const running = replay.running;
    if (err.kind === 'interrupted' && running) {
      // the handler may still finish its work: record a late success so a retry replays it
      running.then(
        (v) =>
          void (isStream(v) || (cmd.output?.kind ?? 'data') !== 'data'
            ? gate.release()
            : gate.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(v === undefined ? null : v) })),
        () => void gate.release(),
      );
    } else if (!recordsFailure(err)) await gate.release();
    else await gate.complete({ exitCode: err.exitCode, kind: 'error', error: err.toJSON() });
  }
  return err;
}
