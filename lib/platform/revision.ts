/**
 * The version-control revision of a Git work tree: recorded by `ax-ts build` for the program it
 * builds, and read by `resolveVersion` for a program run from a checkout, so that a program without
 * a version still says which commit it is (ax-go falls back to Go's `vcs.revision` and
 * `vcs.modified` the same way: docs/shipping.md#the-version). git is run only then, taken on first
 * use (no start pays for node:child_process).
 */
import { builtinModule } from './builtin.ts';

/** Runs git in `dir`; its stdout, or undefined when git is missing or fails. */
function git(dir: string, args: string[]): string | undefined {
  const r = builtinModule('node:child_process').spawnSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, // a build only reads the repository
  });
  return r.status === 0 ? r.stdout : undefined;
}

/**
 * The commit of the Git work tree `dir` is in (40 hex digits), with `-dirty` appended when
 * `git status --porcelain` lists anything (a change or an untracked file, as Go's `vcs.modified`).
 * @returns undefined outside a Git work tree, without git, or before the first commit.
 */
export function vcsRevision(dir: string): string | undefined {
  const head = git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD'])?.trim();
  if (!head || !/^[0-9a-f]{40,64}$/.test(head)) return undefined;
  const status = git(dir, ['status', '--porcelain']);
  return status === undefined || status.trim() === '' ? head : `${head}-dirty`;
}
