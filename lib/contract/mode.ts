/**
 * Output mode detection: `--format` > `AGENT_MODE` > stdout TTY. Source: docs/contract.md; ax-go contract/mode.go.
 */
import { validationError } from './errors.ts';

/** Output mode after detection: `json` for machines, `human` for people. */
export type Mode = 'json' | 'human';

/** The precedence string surfaced verbatim as `mode_detection` in `__schema`. */
export const MODE_DETECTION = '--format flag > AGENT_MODE env > TTY detection';

const FORMAT_VALUES: Record<string, Mode> = {
  json: 'json',
  agent: 'json',
  machine: 'json',
  human: 'human',
  text: 'human',
};
const AGENT_MODE_VALUES: Record<string, Mode> = {
  ...FORMAT_VALUES,
  '1': 'json',
  true: 'json',
  yes: 'json',
  on: 'json',
  '0': 'human',
  false: 'human',
  no: 'human',
  off: 'human',
};

/**
 * Detects the output mode: `--format` > `AGENT_MODE` > stdout TTY (TTY → human, else json).
 * Values are trimmed and case-insensitive; blank counts as absent.
 * @param format value of the injected `--format` flag, undefined when not given or shadowed.
 * @throws AxError `validation_error` (exit 2, reason `invalid_mode`) for a value outside the table.
 */
export function detectMode(format: string | undefined, agentMode: string | undefined, stdoutIsTTY: boolean): Mode {
  const f = format?.trim().toLowerCase();
  if (f) {
    const m = FORMAT_VALUES[f];
    if (!m) {
      throw validationError(
        `invalid value ${JSON.stringify(format)} for --format: expected json or text`,
        'invalid_mode',
        {
          context: { flag: '--format', value: format, accepted: Object.keys(FORMAT_VALUES) },
          fix: 'Pass --format json (for machines) or --format text (for people).',
        },
      );
    }
    return m;
  }
  const a = agentMode?.trim().toLowerCase();
  if (a) {
    const m = AGENT_MODE_VALUES[a];
    if (!m) {
      throw validationError(
        `invalid value ${JSON.stringify(agentMode)} for AGENT_MODE: expected ` +
          `json|agent|machine|1|true|yes|on or human|text|0|false|no|off`,
        'invalid_mode',
        {
          context: { env: 'AGENT_MODE', value: agentMode, accepted: Object.keys(AGENT_MODE_VALUES) },
          fix: 'Set AGENT_MODE=1 for JSON output, AGENT_MODE=0 for text, or unset it.',
        },
      );
    }
    return m;
  }
  return stdoutIsTTY ? 'human' : 'json';
}
