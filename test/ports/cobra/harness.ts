/**
 * The ported Cobra/pflag suites' stand-in for Cobra's `executeCommand(root, args...)`: runs a tree
 * through the public `execute` in human mode (as a person at a terminal, the mode Cobra's texts are
 * for) and returns what Cobra's tests look at — the output, the error's message (`err.Error()`) and
 * the exit code — plus the structured error from a json-mode run when a test needs its reason.
 */
import { runCli, errorOf } from '../../helpers/run.ts';
import type { Command } from '../../../lib/index.ts';

/** What one ported `executeCommand` call produced. */
export interface Executed {
  /** stdout (Cobra's tests read help/usage here). */
  output: string;
  /** stderr in full. */
  stderr: string;
  /** The error message (first `Error: …` line of stderr), or undefined on success. */
  error?: string;
  code: number;
}

/** Cobra's executeCommand: runs `root` with `args` in human mode. */
export async function executeCommand(root: Command, ...args: string[]): Promise<Executed> {
  const r = await runCli(root, args, { tty: true });
  const m = /^Error: (.*)$/m.exec(r.stderr);
  return { output: r.stdout, stderr: r.stderr, error: r.code === 0 ? undefined : m?.[1], code: r.code };
}

/** The structured error of a json-mode run (`error.context.reason` etc.). */
export async function jsonError(
  root: Command,
  ...args: string[]
): Promise<{ kind: string; message: string; context: Record<string, unknown> } | undefined> {
  const r = await runCli(root, args);
  return r.code === 0 ? undefined : errorOf(r.stderr).error;
}

/** Cobra's emptyRun. */
export const emptyRun = (): void => {};
