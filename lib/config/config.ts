/**
 * Config files: `readConfig` reads JSONC (comments, trailing commas) under a size cap;
 * `patchConfig` applies an RFC 6902 patch without losing the file's comments or formatting and
 * writes the result atomically (a temporary file in the same directory, fsynced, renamed over the
 * original), keeping the file's mode. Failures are `config_*` errors of the catalogue (exit 2).
 * Source: ax-go config (ParseFile, PatchFile, DefaultMaxBytes = 1 MiB, config_too_large,
 * config_invalid, config_patch_invalid).
 */
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AxError, validationError } from '../contract/errors.ts';
import { applyJsoncPatch, parseJsonc, type PatchOperation } from './config-patch.ts';

/** Default size cap of a config file: 1 MiB (ax-go's DefaultMaxBytes). */
export const DEFAULT_CONFIG_MAX_BYTES = 1024 * 1024;

/** Options of {@link readConfig} and {@link patchConfig}. */
export interface ConfigOptions {
  /** Largest file accepted, in bytes (a positive integer). Default {@link DEFAULT_CONFIG_MAX_BYTES}. */
  maxBytes?: number;
}

function checkMax(options: ConfigOptions): number {
  const max = options.maxBytes ?? DEFAULT_CONFIG_MAX_BYTES;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw validationError(`config maxBytes must be a positive integer, got ${String(max)}`, 'invalid_option', {
      context: { max_bytes: max },
      fix: 'Pass maxBytes as a positive number of bytes (default 1048576, 1 MiB).',
    });
  }
  return max;
}

function cannotRead(path: string, e: unknown): AxError {
  const code = (e as NodeJS.ErrnoException).code;
  return new AxError(
    'config_invalid',
    `cannot read the config file ${path}: ${code === 'ENOENT' ? 'it does not exist' : (e as Error).message}`,
    {
      context: { path, reason: code === 'ENOENT' ? 'not_found' : 'unreadable', code },
      fix:
        code === 'ENOENT'
          ? `Create ${path}, or point the program at an existing config file.`
          : `Check that ${path} is a readable file.`,
      cause: e,
    },
  );
}

/**
 * Reads at most `max` bytes; one more means the file is too large (checked on the bytes, not only
 * the size: FIFOs and growing files too).
 */
async function readBounded(path: string, max: number): Promise<{ text: string; mode: number }> {
  let fh: FileHandle;
  try {
    fh = await fsp.open(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw cannotRead(path, Object.assign(new Error('it is a directory'), { code: 'EISDIR' }));
    const tooLarge = (size: number | string) =>
      new AxError('config_too_large', `the config file ${path} is larger than ${max} bytes`, {
        context: { path, max_bytes: max, size },
        fix: `Shrink ${path} below ${max} bytes, or raise the limit (maxBytes).`,
      });
    if (st.isFile() && st.size > max) throw tooLarge(st.size);
    const buf = Buffer.alloc(Math.min(max + 1, st.isFile() ? st.size + 1 : max + 1));
    let n = 0;
    for (;;) {
      if (n === buf.length) break;
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > max) throw tooLarge(`more than ${max}`);
    const text = buf
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    return { text, mode: st.mode & 0o7777 };
  } catch (e) {
    if (e instanceof AxError) throw e;
    throw cannotRead(path, e);
  } finally {
    await fh.close().catch(() => {});
  }
}

function invalid(path: string, error: { error: string; line: number; column: number; offset: number }): AxError {
  return new AxError(
    'config_invalid',
    `the config file ${path} is not valid JSONC: ${error.error} at line ${error.line}, column ${error.column}`,
    {
      context: { path, ...error },
      fix:
        `Fix the syntax of ${path} at line ${error.line}, ` +
        `column ${error.column} (comments and trailing commas are allowed).`,
    },
  );
}

/**
 * Reads a JSONC config file (JSON with comments and trailing commas).
 * @param path the file.
 * @returns its value (any JSON value).
 * @throws AxError `config_too_large` (exit 2) when the file exceeds `maxBytes`; `config_invalid`
 *   (exit 2) when it is missing, unreadable or not valid JSONC (context: line, column);
 *   `validation_error` for a bad `maxBytes`.
 */
export async function readConfig(path: string, options: ConfigOptions = {}): Promise<unknown> {
  const max = checkMax(options);
  const { text } = await readBounded(path, max);
  const { value, error } = parseJsonc(text);
  if (error) throw invalid(path, error);
  return value;
}

/**
 * Applies an RFC 6902 JSON Patch to a JSONC config file, keeping its comments and formatting
 * outside the edited values, and writes it atomically with its mode kept. If anything fails,
 * the file is left exactly as it was.
 * @param patch an array of operations (`[{op:'replace', path:'/port', value:8080}]`) or its JSON text.
 * @returns the file's new value.
 * @throws AxError `config_too_large` / `config_invalid` as {@link readConfig}; `config_patch_invalid`
 *   (exit 2) for a malformed patch, a missing target or a failed `test`; `internal_error` when the
 *   new file cannot be written (the original stays).
 */
export async function patchConfig(
  path: string,
  patch: readonly PatchOperation[] | string,
  options: ConfigOptions = {},
): Promise<unknown> {
  const max = checkMax(options);
  const { text, mode } = await readBounded(path, max);
  const parsed = parseJsonc(text);
  if (parsed.error) throw invalid(path, parsed.error);
  const out = applyJsoncPatch(text, patch);
  if (Buffer.byteLength(out, 'utf8') > max) {
    throw new AxError('config_too_large', `the patched config ${path} would be larger than ${max} bytes`, {
      context: { path, max_bytes: max },
      fix: 'Patch less, or raise the limit (maxBytes).',
    });
  }
  if (out !== text) await writeAtomic(path, out, mode);
  return parseJsonc(out).value;
}

/**
 * Where a write of `path` goes: the file a symbolic link (or a chain of them) points to, even one
 * that does not exist yet (a dangling link stays a link: its target is made), else `path`.
 */
export async function writeTarget(path: string): Promise<string> {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    const real = await fsp.realpath(at).catch(() => undefined);
    if (real) return real;
    const link = await fsp.readlink(at).catch(() => undefined);
    if (link === undefined) return at; // not there (or not a link): made where named
    at = resolve(dirname(at), link);
  }
  return at;
}

const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Writes `text` to a temporary file beside `path` (with `mode`), fsyncs it and renames it over
 * `path` (a symlink's target, keeping the link, even a dangling one): a reader sees the old file or
 * the new, never half.
 * @throws AxError `auth_error` (exit 4) when the file system refuses the write (permission, a
 *   read-only file system), else `internal_error`; either way the original stays.
 */
export async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const real = await writeTarget(path); // a symlinked config keeps its link: the target is replaced
  const tmp = join(dirname(real), `.${basename(real)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let fh: FileHandle | undefined;
  try {
    fh = await fsp.open(tmp, 'wx', mode);
    await fh.writeFile(text, 'utf8');
    await fh.chmod(mode); // the umask may have narrowed the mode given to open
    await fh.sync();
    await fh.close();
    fh = undefined;
    await fsp.rename(tmp, real);
  } catch (e) {
    await fh?.close().catch(() => {});
    await fsp.rm(tmp, { force: true }).catch(() => {});
    const code = (e as NodeJS.ErrnoException).code;
    throw new AxError(
      code && DENIED.has(code) ? 'auth_error' : 'internal_error',
      `cannot write the config file ${path}: ${(e as Error).message}`,
      {
        cause: e,
        context: { path, ...(code ? { code } : {}) },
        fix: `Check that the directory of ${path} is writable; the file was not changed.`,
      },
    );
  }
  await fsp.chmod(real, mode).catch(() => {});
}
