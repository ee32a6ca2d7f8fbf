/**
 * Programs written with another CLI library that the every-path contract table
 * (test/helpers/contract-rules.ts) runs its rules over, in test/e2e/contract-twins.test.ts, beside the native fixture: each the
 * contract fixture's twin, with the paths and rules that cannot apply to it, each with why
 * (docs/frontends.md#the-contract-table-over-a-commander-program). A third program (another front
 * end's twin) is one more entry.
 */
import { fileURLToPath } from 'node:url';
import type { Path } from './paths.ts';

/** A rule of the table (by the beginning of its name) that does not apply to a twin, and why. */
export interface NotApplicable {
  rule: string;
  reason: string;
  /** Only on these paths (default: every path). */
  paths?: Path['name'][];
}

/** A twin of the contract fixture, written with another library. */
export interface Twin {
  /** What it is written with (the title of its rows). */
  library: string;
  /** The program, run as `node --import tsx <cli>` by the process and MCP paths. */
  cli: string;
  /** Environment every path gives it, beside the table's own. */
  env: Record<string, string>;
  /** Paths that do not apply, each with why. */
  paths: Partial<Record<Path['name'], string>>;
  rules: NotApplicable[];
}

/**
 * A front end's twin: what no front-end program can do — the in-process path, streams, dry runs
 * and rehearsals, a run context, `replay: false` — each with why, plus `extra` rules of its own.
 * `handler` names the library's callback ("a commander action").
 */
function frontEndTwin(library: string, fixture: string, handler: string, extra: NotApplicable[]): Twin {
  const noPreview = `${handler} has no preview: its command declares no dry run, so it has no --dry-run (docs/frontends.md)`;
  const noCtx = `${handler} gets no run context (ctx.signal, ctx.warn, ctx.idempotencyKey)`;
  const noSecret = `the twin declares no secret option; a ${library} program's secret option is taken on its command line (the program reads its argv), so the native secret rules do not hold (docs/frontends.md, test/frontends/secret-option.test.ts)`;
  const noPaging = `a ${library} command's declared output takes schema, cardinality and nonDeterministic, not paging: ${handler} answers the whole list (docs/frontends.md)`;
  return {
    library,
    cli: fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url)),
    // a front end enters json mode only when asked, never because stdout is a pipe (docs/frontends.md)
    env: { AGENT_MODE: 'json' },
    paths: {
      'in-process': `execute() runs a native tree; a ${library} program reaches ax-ts only through the parse of withAx, which is the CLI path`,
    },
    rules: [
      { rule: 'a stream that fails after two items', reason: `${handler} returns one value: it cannot stream` },
      {
        rule: 'replay: false and read-only commands never record',
        reason: `the front end has no replay: false declaration, and ${noCtx}`,
      },
      { rule: 'a dry run never records a key', reason: noPreview },
      { rule: 'a secret flag on argv', reason: noSecret },
      { rule: 'paging: a paged answer', reason: noPaging },
      { rule: 'paging: --limit outside', reason: noPaging },
      { rule: 'paging × --fields', reason: noPaging },
      { rule: "paging: the next step drops only the caller's own", reason: noPaging },
      { rule: 'paging × replay', reason: noPaging },
      { rule: 'secret × replay key', reason: noSecret },
      { rule: 'ctx.spawn × timeout', reason: noCtx },
      { rule: 'per-item results:', reason: noCtx },
      { rule: 'per-item results × --timeout', reason: noCtx },
      { rule: 'secret × dry run', reason: noSecret },
      {
        rule: 'auth_expired (exit 4, retryable',
        reason: `the twin declares no sign-in command (login is a root declaration of a native tree) and has no command that throws auth_expired`,
      },
      { rule: "secret × a stop's next step", reason: noSecret },
      {
        rule: 'a --timeout that passes',
        reason:
          'the front end has no replay: false declaration (the row compares a command that replays with one that does not)',
      },
      { rule: 'perform with a function rehearsal', reason: noPreview },
      { rule: 'a read-only command offers a dry run', reason: noPreview },
      { rule: 'a declared dry run whose handler never checks it', reason: noPreview },
      { rule: 'a callback the handler queued just before returning', reason: `its warning is ctx.warn: ${noCtx}` },
      { rule: 'ctx.signal is one AbortSignal for the run', reason: noCtx },
      { rule: 'a failure after ctx.step steps', reason: noCtx },
      { rule: 'a confirmation stop under a key is not recorded', reason: `its gate is ctx.confirm: ${noCtx}` },
      {
        rule: 'an action_required stop under a key is not recorded',
        reason: `its stop is ctx.actionRequired: ${noCtx}`,
      },
      { rule: '--strict: warnings_as_errors under a key is not recorded', reason: `its warning is ctx.warn: ${noCtx}` },
      {
        rule: 'input nested too deep for JSON',
        reason: `${library} has no JSON option type: on the command line --obj is text, parsed by the handler itself`,
        paths: ['cli'],
      },
      ...extra,
    ],
  };
}

/** The commander twin: test/fixtures/contract-commander.ts (commander 15 and withAx). */
export const COMMANDER_TWIN: Twin = frontEndTwin('commander', 'contract-commander.ts', 'a commander action', [
  {
    rule: 'retry_after_seconds ≤ 0 is dropped',
    reason: 'commander options are text (no float type): the row sends a number for --after',
    paths: ['args-json', 'mcp-stdio', 'mcp-http', 'mcp-http-stateless', 'mcp-progressive'],
  },
]);

/** The yargs twin: test/fixtures/contract-yargs.ts (yargs 18 and withAx); yargs has a number type. */
export const YARGS_TWIN: Twin = frontEndTwin('yargs', 'contract-yargs.ts', 'a yargs handler', []);

/** Every twin the table runs over. */
export const TWINS: Twin[] = [COMMANDER_TWIN, YARGS_TWIN];
