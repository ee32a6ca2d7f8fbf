/**
 * The HTTP server's bearer token: read from `--token-file` (or `tokenFile`), else from the
 * environment variable {@link TOKEN_ENV}. Light (node:fs only): `--print-config` reads it too.
 * A token file is refused, as OpenSSH refuses a private key, when another user owns it or may read
 * or write it (docs/security.md#the-bearer-token).
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { validationError } from '../../lib/contract/errors.ts';

/** Environment variable holding the token when no token file is given. */
export const TOKEN_ENV = 'AX_MCP_TOKEN';

/** Fewest characters a token may have (a short one can be guessed). */
export const MIN_TOKEN_CHARS = 16;

/**
 * The token, or undefined when neither a file nor the variable gives one. The file's content is
 * trimmed (a trailing newline is usual).
 * @throws AxError validation_error `invalid_token` (exit 2): the file cannot be read, or the token
 *   is shorter than {@link MIN_TOKEN_CHARS} characters or contains whitespace;
 *   `insecure_token_file` (exit 2): the file is owned by another user (not root) or group/others may
 *   read or write it (any of mode 0o077).
 */
export function resolveToken(
  tokenFile: string | undefined,
  env: Record<string, string | undefined> = process.env,
  direct?: string,
): string | undefined {
  let token: string | undefined = direct;
  let from = 'the token option';
  if (token === undefined && tokenFile) {
    from = `--token-file ${tokenFile}`;
    let fd: number;
    try {
      fd = openSync(tokenFile, 'r');
    } catch (e) {
      throw validationError(
        `cannot read --token-file ${JSON.stringify(tokenFile)}: ${(e as Error).message}`,
        'invalid_token',
        {
          context: { flag: '--token-file' },
          fix: 'Pass a readable file holding the token, e.g. one written by `openssl rand -hex 32 > token && chmod 600 token`.',
        },
      );
    }
    try {
      refuseUnprotected(tokenFile, fstatSync(fd));
      token = readFileSync(fd, 'utf8').trim();
    } finally {
      closeSync(fd);
    }
  } else if (token === undefined && env[TOKEN_ENV]) {
    from = `$${TOKEN_ENV}`;
    token = env[TOKEN_ENV]!.trim();
  }
  if (token === undefined) return undefined;
  if (token.length < MIN_TOKEN_CHARS || /\s/.test(token)) {
    throw validationError(
      `the token from ${from} must be at least ${MIN_TOKEN_CHARS} characters with no whitespace`,
      'invalid_token',
      {
        fix: 'Generate one with `openssl rand -hex 32`.',
      },
    );
  }
  return token;
}

/** The OpenSSH rule for a secret file: owned by us (or root), no access for group or others. */
function refuseUnprotected(file: string, st: { uid: number; mode: number; isFile(): boolean }): void {
  if (!st.isFile()) {
    throw validationError(`refusing --token-file ${JSON.stringify(file)}: it is not a regular file`, 'invalid_token', {
      context: { flag: '--token-file' },
      fix: 'Pass a file holding the token, e.g. one written by `openssl rand -hex 32 > token && chmod 600 token`.',
    });
  }
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
  const uid = process.getuid();
  const why =
    st.uid !== uid && st.uid !== 0
      ? `it is owned by uid ${st.uid}, not by this user (uid ${uid})`
      : (st.mode & 0o077) !== 0
        ? `its mode ${(st.mode & 0o777).toString(8).padStart(4, '0')} lets group or others read or write it`
        : undefined;
  if (why === undefined) return;
  throw validationError(`refusing --token-file ${JSON.stringify(file)}: ${why}`, 'insecure_token_file', {
    context: { flag: '--token-file' },
    fix: `Make it yours and private: \`chmod 600 ${file}\` (and chown it to this user).`,
  });
}

/**
 * `env` without {@link TOKEN_ENV}: what handlers and their children see once the server has read
 * the token. When `env` is `process.env`, the variable is also deleted from it, so a child started
 * with the default environment does not inherit the secret.
 */
export function withoutToken(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (!(TOKEN_ENV in env)) return env;
  if (env === process.env) delete process.env[TOKEN_ENV];
  const { [TOKEN_ENV]: _dropped, ...rest } = env;
  return rest;
}
