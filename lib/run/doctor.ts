/**
 * `<program> doctor`: a hidden built-in that reports the runtime against its floor, the agent
 * detected, the state and cache directories (owner, mode, trust), the idempotency store's answer and
 * the packages bundled inside ax-ts (docs/contract.md#doctor). Light: the report's code
 * (./doctor-report.ts) loads only when it runs.
 */
import { Command } from '../tree/command.ts';
import { BUILTIN_ANNOTATION, rootTakesPositionals } from '../tree/marks.ts';

/** The `doctor` built-in of `root`. */
export function doctorCommand(root: Command): Command {
  return new Command({
    use: 'doctor',
    short: 'Check the runtime, the state directory and the idempotency store this program uses',
    hidden: true, // not in the help's list (Cobra's has no such command): docs/contract.md#doctor
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    run: async (ctx) => (await import('./doctor-report.ts')).doctorReport(root, ctx),
  });
}

const INSTALLED = Symbol.for('ax-ts.doctor');

/**
 * Adds `doctor` to a root that has subcommands, has no `doctor` of its own and takes no positionals
 * (a word there is an argument, and a built-in never changes that); idempotent.
 */
export function installDoctor(root: Command): void {
  const r = root as Command & { [INSTALLED]?: true };
  if (r[INSTALLED]) return;
  r[INSTALLED] = true;
  if (root.hasSubCommands() && !root.findChild('doctor') && !rootTakesPositionals(root))
    root.addCommand(doctorCommand(root));
}
