/**
 * Programs written with another CLI library that the every-path contract table
 * (test/e2e/contract-paths.test.ts) runs its rules over, beside the native fixture: each the
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

const NO_PREVIEW =
  'a commander action has no preview: a dry run is refused (dry_run_unsupported, test/frontends/commander.test.ts)';
const NO_CTX = 'a commander action gets no run context (ctx.signal, ctx.warn, ctx.idempotencyKey)';

/** The commander twin: test/fixtures/contract-commander.ts (commander 15 and withAx). */
export const COMMANDER_TWIN: Twin = {
  library: 'commander',
  cli: fileURLToPath(new URL('../fixtures/contract-commander.ts', import.meta.url)),
  // a front end enters json mode only when asked, never because stdout is a pipe (docs/frontends.md)
  env: { AGENT_MODE: 'json' },
  paths: {
    'in-process':
      'execute() runs a native tree; a commander program reaches ax-ts only through its own parse/parseAsync (withAx), which is the CLI path',
  },
  rules: [
    { rule: 'a stream that fails after two items', reason: 'a commander action returns one value: it cannot stream' },
    {
      rule: 'replay: false and read-only commands never record',
      reason: `the front end has no replay: false declaration, and ${NO_CTX}`,
    },
    { rule: 'a dry run never records a key', reason: NO_PREVIEW },
    { rule: 'perform with a function rehearsal', reason: NO_PREVIEW },
    { rule: 'a callback the handler queued just before returning', reason: `its warning is ctx.warn: ${NO_CTX}` },
    { rule: 'ctx.signal is one AbortSignal for the run', reason: NO_CTX },
    {
      rule: 'retry_after_seconds ≤ 0 is dropped',
      reason: 'commander options are text (no float type): the row sends a number for --after',
      paths: ['args-json', 'mcp-stdio', 'mcp-http', 'mcp-http-stateless', 'mcp-progressive'],
    },
    {
      rule: 'input nested too deep for JSON',
      reason: 'commander has no JSON option type: on the command line --obj is text, parsed by the action itself',
      paths: ['cli'],
    },
  ],
};

const NO_YARGS_PREVIEW =
  'a yargs handler has no preview: a dry run is refused (dry_run_unsupported, docs/frontends.md#yargs)';
const NO_YARGS_CTX = 'a yargs handler gets no run context (ctx.signal, ctx.warn, ctx.idempotencyKey)';

/** The yargs twin: test/fixtures/contract-yargs.ts (yargs 18 and withAx). */
export const YARGS_TWIN: Twin = {
  library: 'yargs',
  cli: fileURLToPath(new URL('../fixtures/contract-yargs.ts', import.meta.url)),
  // a front end enters json mode only when asked, never because stdout is a pipe (docs/frontends.md)
  env: { AGENT_MODE: 'json' },
  paths: {
    'in-process':
      'execute() runs a native tree; a yargs program reaches ax-ts only through the parse of withAx, which is the CLI path',
  },
  rules: [
    { rule: 'a stream that fails after two items', reason: 'a yargs handler returns one value: it cannot stream' },
    {
      rule: 'replay: false and read-only commands never record',
      reason: `the front end has no replay: false declaration, and ${NO_YARGS_CTX}`,
    },
    { rule: 'a dry run never records a key', reason: NO_YARGS_PREVIEW },
    { rule: 'perform with a function rehearsal', reason: NO_YARGS_PREVIEW },
    { rule: 'a callback the handler queued just before returning', reason: `its warning is ctx.warn: ${NO_YARGS_CTX}` },
    { rule: 'ctx.signal is one AbortSignal for the run', reason: NO_YARGS_CTX },
    {
      rule: 'input nested too deep for JSON',
      reason: 'yargs has no JSON option type: on the command line --obj is text, parsed by the handler itself',
      paths: ['cli'],
    },
  ],
};

/** Every twin the table runs over. */
export const TWINS: Twin[] = [COMMANDER_TWIN, YARGS_TWIN];
