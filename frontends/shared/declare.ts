/**
 * What an author declares about a front-ended program's command for agents (effects, outputs,
 * prompts…), the same for every front end, and how a declaration becomes part of the command's
 * native twin (docs/frontends.md#declaring-what-agents-need).
 */
import {
  AxError,
  declarePrompt,
  declareResource,
  mcp,
  type Capability,
  type Command,
  type CommandConfig,
  type Effects,
  type FlagSpec,
  type OutputDecl,
  type PromptDecl,
  type ResourceDecl,
} from '../../lib/index.ts';

/** The declarations of one command of a front-ended program. */
export interface AxDeclarations {
  /**
   * What re-running does (MCP annotations; docs/mcp-server.md#annotations). Undeclared: no hints, so a
   * client assumes destructive.
   */
  effects?: Effects;
  /** ax-go's capability classes (see `CommandConfig.capabilities` of `ax-ts`). */
  capabilities?: readonly Capability[];
  /** Whether the command may destroy or overwrite data (MCP `destructiveHint`). */
  destructive?: boolean;
  /** The output declaration: a JSON Schema (2020-12) of what the handler returns. */
  output?: Pick<OutputDecl, 'schema' | 'cardinality' | 'nonDeterministic'>;
  /** `true`: kept out of the MCP tools and agent projections (still runs and stays in help and `__schema --as=ax`). */
  withheld?: boolean;
  /** Prompts declared on the command (root: program-wide; `ax-ts`'s `declarePrompt`). */
  prompts?: PromptDecl[];
  /** Resources declared on the command (`ax-ts`'s `declareResource`). */
  resources?: ResourceDecl[];
  /**
   * The command's own options that hold secrets (long names without dashes, e.g. `token`): each is
   * a secret flag of its twin (docs/security.md#secret-flags) — its MCP property `writeOnly`,
   * `format: "password"`, its value redacted in every error line, idempotency record, span and
   * next step. Accepted on the command line (the program reads its own argv: the value is on the
   * child's argv, docs/frontends.md#what-does-not-map).
   */
  secrets?: readonly string[];
}

/** What a secret flag may not declare (docs/security.md#secret-flags), as a front end's author reads it. */
const SHOWN_VALUES = {
  default: 'default',
  choices: 'choices',
  examples: 'examples',
  noOptDefVal: 'value it takes when given alone',
} as const;

/**
 * The command's options as flags, those its declarations name in `secrets` marked secret (with
 * `secretArgv`: the program takes them on its command line).
 * @throws AxError `validation_error`: reason `unknown_secret_option` for a name that is none of
 *   the command's options; `invalid_secret_option` for an option that takes no text value, or with
 *   a default, choices, examples or a value when given alone, which a native secret flag may not
 *   have either (a value written into the program is no secret).
 */
export function markSecrets<T extends { name: string; spec: FlagSpec }>(
  label: string,
  options: T[],
  decl: Readonly<AxDeclarations>,
): T[] {
  const names = decl.secrets ?? [];
  for (const n of names)
    if (!options.some((o) => o.name === n))
      throw new AxError('validation_error', `${label}: the secret option --${n} is not an option of the command`, {
        context: { reason: 'unknown_secret_option', command: label, option: n, options: options.map((o) => o.name) },
        fix: `Name one of the command's own options in secrets (long names without dashes): ${options.map((o) => o.name).join(', ') || 'it has none'}.`,
      });
  for (const o of options) {
    if (!names.includes(o.name)) continue;
    if (o.spec.type !== 'string')
      throw new AxError(
        'validation_error',
        `${label}: the secret option --${o.name} takes no text value (it is ${o.spec.type}): only an option that takes one, such as a token, can be secret`,
        {
          context: { reason: 'invalid_secret_option', command: label, option: o.name, type: o.spec.type },
          fix: `Leave --${o.name} out of secrets.`,
        },
      );
    const shown = (Object.keys(SHOWN_VALUES) as (keyof typeof SHOWN_VALUES)[]).filter((k) => o.spec[k] !== undefined);
    if (shown.length === 0) continue;
    const what = shown.map((k) => SHOWN_VALUES[k]).join(' and ');
    throw new AxError(
      'validation_error',
      `${label}: the secret option --${o.name} declares its ${what}: a value written into the program is no secret, and help and schemas would show it`,
      {
        context: { reason: 'invalid_secret_option', command: label, option: o.name, declares: shown },
        fix: `Take the ${what} off --${o.name} (a secret comes from the caller, or from the environment), or leave --${o.name} out of secrets.`,
      },
    );
  }
  return options.map((o) =>
    names.includes(o.name) ? { ...o, spec: { ...o.spec, secret: true, secretArgv: true } } : o,
  );
}

/**
 * The parts of a twin's `CommandConfig` that a command's declarations give; `noData`: the command's
 * `data` is always null (its result is what the program prints), so it offers no `--fields`.
 */
export function declaredConfig(
  decl: Readonly<AxDeclarations>,
  noData = false,
): Pick<CommandConfig, 'effects' | 'capabilities' | 'destructive' | 'output'> {
  return {
    ...(decl.effects ? { effects: decl.effects } : {}),
    ...(decl.capabilities ? { capabilities: decl.capabilities } : {}),
    ...(decl.destructive !== undefined ? { destructive: decl.destructive } : {}),
    ...(decl.output || noData
      ? { output: { kind: 'data' as const, ...decl.output, ...(noData ? { noData: true } : {}) } }
      : {}),
  };
}

/**
 * Marks a built twin as its declarations say: withheld from MCP, its prompts and resources. A
 * withheld twin without an action is no tool to remove: its withholding has taken effect already
 * (its options are not checked for names that mean two things), so it gets no `mcp.exclude` mark,
 * whose warning about a group that removes no tool would advise an API the front end's user cannot
 * call (docs/frontends.md#what-does-not-map).
 */
export function applyDeclarations(twin: Command, decl: Readonly<AxDeclarations>): void {
  if (decl.withheld && twin.runnable()) mcp.exclude(twin);
  for (const p of decl.prompts ?? []) declarePrompt(twin, p);
  for (const r of decl.resources ?? []) declareResource(twin, r);
}
