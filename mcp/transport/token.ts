/**
 * The server's secrets: the HTTP server's bearer token, read from `--token-file` (or `tokenFile`),
 * else from the environment variable {@link TOKEN_ENV}; and the key that signs a 2026-07-28
 * `requestState` ({@link STATE_KEY_ENV}). Light (node:fs only): `--print-config` reads them too.
 * A token file is refused, as OpenSSH refuses a private key, when another user owns it or may read
 * or write it; a token or key too short to be a secret is refused at start (docs/security.md).
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { validationError } from '../../lib/contract/errors.ts';
import { STATE_KEY_ENV } from '../call/model.ts';

/** Environment variable holding the token when no token file is given. */
export const TOKEN_ENV = 'AX_MCP_TOKEN';

/** Fewest bytes a state key may have: an HMAC-SHA256 key shorter than its hash is weaker than it. */
export const MIN_STATE_KEY_BYTES = 32;

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
          fix:
            'Pass a readable file holding the token, e.g. one written ' +
            'by `openssl rand -hex 32 > token && chmod 600 token`.',
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
 * The state key from {@link STATE_KEY_ENV}, or undefined when the variable is not set (the server
 * then signs with a random key of its own). Set but empty or shorter than
 * {@link MIN_STATE_KEY_BYTES} bytes is refused, as a weak token is: a key that can be guessed lets
 * anyone forge the answers of a confirmation.
 * @throws AxError validation_error `invalid_state_key` (exit 2).
 */
export function resolveStateKey(env: Record<string, string | undefined>): string | undefined {
  const key = env[STATE_KEY_ENV];
  if (key === undefined) return undefined;
  if (Buffer.byteLength(key, 'utf8') < MIN_STATE_KEY_BYTES) {
    throw validationError(
      `$${STATE_KEY_ENV} must be at least ${MIN_STATE_KEY_BYTES} bytes, got ${Buffer.byteLength(key, 'utf8')}`,
      'invalid_state_key',
      {
        context: { env: STATE_KEY_ENV },
        fix:
          `Set ${STATE_KEY_ENV} to the output of \`openssl rand -hex 32\` (the ` +
          `same on every replica), or unset it for a random key per process.`,
      },
    );
  }
  return key;
}

/**
 * `env` without the server's secrets ({@link TOKEN_ENV}, {@link STATE_KEY_ENV}): what handlers and
 * their children see once the server has read them. When `env` is `process.env`, the variables are
 * also deleted from it, so a child started with the default environment does not inherit them.
 */
export function withoutSecrets(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (!(TOKEN_ENV in env) && !(STATE_KEY_ENV in env)) return env;
  if (env === process.env) {
    delete process.env[TOKEN_ENV];
    delete process.env[STATE_KEY_ENV];
  }
  const { [TOKEN_ENV]: _token, [STATE_KEY_ENV]: _key, ...rest } = env;
  return rest;
}
