/**
 * Declarations Cobra puts on a command beyond its flags and arguments: run hooks, command groups
 * and help/usage/version customisation. Only shapes live here (they take the run context as a type
 * parameter so this module needs nothing from command.ts); the order hooks run in is
 * `lib/run/hooks.ts`, help rendering `lib/help/`. Source: spf13/cobra command.go.
 */

/**
 * A run hook: like a `run` handler it gets the run context (`ctx.command` is the command being run,
 * also when the hook is an ancestor's persistent one), may be async, and fails the run by throwing —
 * exactly as a throwing `run` does (the error line, its exit code; no later hook or handler runs).
 * Its return value is ignored.
 */
export type RunHook<Ctx> = (ctx: Ctx) => unknown;

/**
 * Cobra's run hooks. For `cmd` they run in this order: the Args validator and the required-flag and
 * flag-group checks, then `persistentPreRun` (the nearest one on cmd or an ancestor), `preRun`
 * (cmd's own), `run`, `postRun` (cmd's own), `persistentPostRun` (the nearest). (Cobra checks
 * required flags and groups after the pre hooks; ax-ts before, on every path, so no hook runs for
 * a call refused as malformed.) With `enableTraverseRunHooks` on the root, every persistent hook on the path runs:
 * pre hooks root first, post hooks cmd first. Post hooks run only after a successful `run`, before its
 * payload is written (so a failing post hook leaves an error, not a success envelope); for a stream,
 * after its last item. `--help`, `--version` and a group without `run` run no hook. Hooks
 * run on every path: the CLI, `--args-json`, `execute` in-process and MCP `tools/call`, dry runs
 * included (a hook that changes state should check `ctx.dryRun`).
 */
export interface RunHooks<Ctx> {
  /** Runs before `preRun` for this command and, unless a descendant has its own, every descendant. */
  persistentPreRun?: RunHook<Ctx>;
  /** Runs before this command's checks of required flags and flag groups, and before `run`. */
  preRun?: RunHook<Ctx>;
  /** Runs after this command's `run` succeeded. */
  postRun?: RunHook<Ctx>;
  /** Runs after `postRun` for this command and, unless a descendant has its own, every descendant. */
  persistentPostRun?: RunHook<Ctx>;
  /**
   * Root only: Cobra's EnableTraverseRunHooks — run the persistent hooks of every ancestor, not
   * just the nearest. Default false.
   */
  enableTraverseRunHooks?: boolean;
}

/** Cobra's Group: a titled section of "Available Commands" in help (`addGroup`, a child's `groupId`). */
export interface CommandGroup {
  /** Id children name in `groupId`. */
  id: string;
  /** Section title as printed, e.g. `Management Commands:`. */
  title: string;
}
