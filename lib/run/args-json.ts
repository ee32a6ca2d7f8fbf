/**
 * `--args-json '<object>'` (docs/llms.md#--args-json): the object read as config files are read —
 * JSON with comments and trailing commas (JSONC, the config reader's parser) — checked against the
 * command's inputSchema as MCP `tools/call` arguments are, and bound without any text parsing. An
 * object that does not read is refused; when one of the usual slips of generated JSON is the only
 * thing wrong, the refusal carries the corrected object and the same call with it.
 */
import { validationError } from '../contract/errors.ts';
import type { NextStep } from '../contract/errors.ts';
import { inputSchema } from '../parse/input-schema.ts';
import { bindValues } from '../parse/validate.ts';
import type { Invocation } from '../parse/parse.ts';
import { repairJson, type JsonRepair } from '../parse/json-repair.ts';
import { argsJsonStep, shellWord } from '../schema/next-steps.ts';
import { redactSecretArgs } from '../tree/secret.ts';

/**
 * Rebuilds an invocation from `--args-json '<object>'`: the object is validated against the command's
 * inputSchema exactly as MCP `tools/call` arguments are (same module, same errors), then bound
 * without any text parsing. Other flags (but `--format` and flags declared `mcp: false`) and
 * positionals may not be combined with it. `program` is the name a corrected call starts with.
 * @throws AxError `validation_error` (reasons `args_json_conflict`, `invalid_args_json`, or the
 *   argument validation reasons).
 */
export async function argsJsonInvocation(inv: Invocation, program: string): Promise<Invocation> {
  const cmd = inv.command;
  if (!cmd.runnable()) {
    throw validationError(
      `${JSON.stringify(cmd.commandPath())} is a group of commands; --args-json needs a command that runs`,
      'args_json_conflict',
      {
        context: { command: cmd.commandPath() },
        fix:
          `Name a subcommand: ${cmd.commandPath()} <command> ` +
          `--args-json '{…}' (see ${cmd.root().name} __schema --as=llms).`,
      },
    );
  }
  // flags declared `mcp: false` cannot be in the object, so they may stand beside it; so may the
  // caller's own controls of the run, which are no inputs (--format, --strict, --timeout)
  const { all, inForce } = inv.resolved;
  const terminalOnly = (k: string) =>
    all.get(k)?.spec.mcp === false || ((k === 'strict' || k === 'timeout') && inForce(k));
  const others = [...inv.values.keys()].filter(
    (k) => k !== 'args-json' && !(k === 'format' && inForce('format')) && !terminalOnly(k),
  );
  if (others.length || inv.positionals.length) {
    const what = [...others.map((k) => `--${k}`), ...inv.positionals.map((p) => JSON.stringify(p))];
    throw validationError(
      `--args-json carries every argument; it cannot be combined with ${what.join(', ')}`,
      'args_json_conflict',
      {
        context: { command: cmd.commandPath(), extra: what },
        fix: 'Put every argument in the --args-json object (see __schema --as=llms), or drop --args-json.',
      },
    );
  }
  const parsed = await readObject(inv, program, String(inv.values.get('args-json')));
  const { validateArguments } = await import('../parse/arguments.ts');
  const values = validateArguments(cmd, inputSchema(cmd), parsed);
  const bound = bindValues(cmd, values);
  for (const [k, v] of inv.values) if (terminalOnly(k)) bound.values.set(k, v);
  // what a stop's next steps repeat: this command line, with the object amended
  bound.argv = inv.argv;
  bound.argsJson = parsed as Record<string, unknown>;
  return bound;
}

/** What each repair did, for the fix. */
const REPAIRED: Record<JsonRepair, string> = {
  single_quotes: 'single-quoted strings double-quoted',
  unquoted_keys: 'keys quoted',
  python_literals: 'True, False and None spelled true, false and null',
  trailing_text: 'the text after the object dropped',
};

/**
 * The value of `text`: strict JSON as is (no parser to load), else JSONC read by the config
 * reader's parser, else a refusal — with the corrected object when {@link repairJson} has one.
 */
async function readObject(inv: Invocation, program: string, text: string): Promise<unknown> {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // read again below: JSON.parse's own message quotes the text, which may hold a secret's value
  }
  const { parseJsonc } = await import('../config/config-patch.ts');
  const parse = async (t: string) => {
    try {
      return parseJsonc(t);
    } catch (e) {
      // the JSONC parser descends recursively: a text nested thousands deep overflows the stack
      // (the validator's module, with Ajv, is loaded only then: a run that needs neither loads neither)
      if (e instanceof RangeError) throw (await import('../parse/arguments.ts')).tooDeepError(inv.command);
      throw e;
    }
  };
  const read = await parse(text);
  if (!read.error) return read.value;
  const { error, line, column } = read.error;
  // where, never what: the words of the text are the caller's, and may be a secret
  const what = error.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const message = `--args-json is not valid JSON: ${what} at line ${line}, column ${column}`;
  const repaired = repairJson(text);
  const again = repaired && (await parse(repaired.text));
  if (!repaired || !again || again.error || !isObject(again.value)) {
    throw validationError(message, 'invalid_args_json', {
      context: { line, column },
      fix: 'Pass one JSON object, quoted for the shell: --args-json \'{"name":"value"}\'.',
    });
  }
  // a secret's value is never repeated: its placeholder is (docs/security.md#secret-flags)
  const value = redactSecretArgs(inv.command, again.value, true);
  const corrected = JSON.stringify(value);
  const step: NextStep | undefined = inv.argv && argsJsonStep(inv, program, value, 'the same call, corrected');
  throw validationError(message, 'invalid_args_json', {
    context: { line, column, corrected, repairs: repaired.repairs },
    fix:
      `Pass the corrected object (context.corrected: ${repaired.repairs.map((r) => REPAIRED[r]).join('; ')}): ` +
      `--args-json ${shellWord(corrected)}${step ? '; next[0] is this call with it' : ''}.`,
    ...(step ? { next: [step] } : {}),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
