/**
 * The HTTP server's bearer token: read from `--token-file` (or `tokenFile`), else from the
 * environment variable {@link TOKEN_ENV}. Light (node:fs only): `--print-config` reads it too.
 */
import { readFileSync } from 'node:fs';
import { validationError } from '../lib/contract/errors.ts';

/** Environment variable holding the token when no token file is given. */
export const TOKEN_ENV = 'AX_MCP_TOKEN';

/** Fewest characters a token may have (a short one can be guessed). */
export const MIN_TOKEN_CHARS = 16;

/**
 * The token, or undefined when neither a file nor the variable gives one. The file's content is
 * trimmed (a trailing newline is usual).
 * @throws AxError validation_error `invalid_token` (exit 2): the file cannot be read, or the token
 *   is shorter than {@link MIN_TOKEN_CHARS} characters or contains whitespace.
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
    try {
      token = readFileSync(tokenFile, 'utf8').trim();
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
