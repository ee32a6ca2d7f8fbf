/**
 * The checks `new Command()` runs on its declaration before it builds anything (docs/api.md): every
 * option and positional key known (a misspelt one is refused with a suggestion), flag and positional
 * declarations consistent, capabilities with effects, the types of `dryRun` and `schemaBudget`, the
 * logging and non-deterministic declarations, and what a lazy command (`load`) may declare.
 * Each check throws a TypeError naming the command: an author error, found when the tree is built.
 */
import { checkArgDecls, type ArgSpec } from './args.ts';
import type { CommandConfigOf } from './command-config.ts';
import { checkFlagDecl, checkSecretDecl, type FlagSpec } from './flags.ts';
import { checkLoggingDecl } from './logging.ts';
import { checkNonDeterministic } from './nondeterministic.ts';
import { checkCapabilities } from './output.ts';
import { checkPagingDecl } from './paging.ts';
import { ARG_SPEC_KEYS, checkKnownKeys, commandKeys, FLAG_SPEC_KEYS } from './known-keys.ts';

/** A declaration as these checks read it (any command type, any context). */
type AnyConfig = CommandConfigOf<any, any, any>;

/** Every option `new Command()` takes (checked against CommandConfigOf at compile time). */
const COMMAND_KEYS = commandKeys([
  'use',
  'short',
  'long',
  'example',
  'exampleStdin',
  'aliases',
  'hidden',
  'deprecated',
  'annotations',
  'flags',
  'persistentFlags',
  'args',
  'validateArgs',
  'validArgs',
  'validArgsFunction',
  'mutuallyExclusive',
  'requiredTogether',
  'oneRequired',
  'effects',
  'capabilities',
  'destructive',
  'replay',
  'task',
  'output',
  'confirmationFlag',
  'dryRun',
  'finishOnSigterm',
  'run',
  'render',
  'version',
  'package',
  'login',
  'logging',
  'config',
  'schemaBudget',
  'commands',
  'load',
  'groupId',
  'traverseChildren',
  'disableFlagParsing',
  'helpFunc',
  'usageFunc',
  'versionTemplate',
  'persistentPreRun',
  'preRun',
  'postRun',
  'persistentPostRun',
  'enableTraverseRunHooks',
] as const);

/** An npm package name, scoped or not (npm: lower case, at most 214 characters, no leading dot or underscore). */
const NPM_NAME = /^(?=.{1,214}$)(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** A flag declaration's keys, then its values (flags.ts). @throws TypeError. */
export function checkFlag(cmd: string, name: string, spec: FlagSpec): void {
  if (spec !== null && typeof spec === 'object') checkKnownKeys(cmd, `flag --${name}`, spec, FLAG_SPEC_KEYS);
  checkFlagDecl(cmd, name, spec);
  checkSecretDecl(cmd, name, spec);
}

/** What a lazy command leaves to the command it loads (see {@link CommandConfigOf.load}). */
const LOADED_ONLY = [
  'long',
  'example',
  'exampleStdin',
  'annotations',
  'flags',
  'persistentFlags',
  'args',
  'validateArgs',
  'validArgs',
  'validArgsFunction',
  'mutuallyExclusive',
  'requiredTogether',
  'oneRequired',
  'effects',
  'capabilities',
  'destructive',
  'output',
  'confirmationFlag',
  'dryRun',
  'run',
  'render',
  'version',
  'package',
  'login',
  'schemaBudget',
  'commands',
] as const;

/** Every option of `config` is one `new Command()` takes. @throws TypeError with a suggestion. */
export function checkOptions(config: AnyConfig): void {
  if (config !== null && typeof config === 'object')
    checkKnownKeys(
      `Command ${JSON.stringify(String((config as { use?: unknown }).use ?? ''))}`,
      'option',
      config,
      COMMAND_KEYS,
    );
}

/**
 * The rest of the declaration of the command `name`, whose positionals are `args` (declared, or
 * read from its usage line). @throws TypeError naming the command.
 */
export function checkDeclaration(name: string, config: AnyConfig, args: readonly ArgSpec[]): void {
  for (const a of args)
    if (a !== null && typeof a === 'object')
      checkKnownKeys(`Command ${name}`, `positional ${JSON.stringify(a.name)}`, a, ARG_SPEC_KEYS);
  checkArgDecls(name, args);
  checkCapabilities(`Command ${name}`, config.capabilities, config.effects);
  if (config.dryRun !== undefined && typeof config.dryRun !== 'boolean')
    throw new TypeError(`Command ${name}: dryRun must be true or false`);
  checkLoggingDecl(name, config.logging);
  if (config.schemaBudget !== undefined && (!Number.isSafeInteger(config.schemaBudget) || config.schemaBudget < 0))
    throw new TypeError(`Command ${name}: schemaBudget must be a whole number of characters (0: no budget)`);
  if (config.package !== undefined && (typeof config.package !== 'string' || !NPM_NAME.test(config.package)))
    throw new TypeError(`Command ${name}: package must be an npm package name (mycli, @scope/mycli)`);
  const login = config.login as unknown;
  if (login !== undefined && !(Array.isArray(login) && login.length && login.every((w) => typeof w === 'string' && w)))
    throw new TypeError(
      `Command ${name}: login must be the words of a command after the program's name (['auth', 'login'])`,
    );
  checkNonDeterministic(name, config.output?.nonDeterministic);
  checkPagingDecl(
    name,
    config.output as Record<string, unknown> | undefined,
    [...Object.keys(config.flags ?? {}), ...Object.keys(config.persistentFlags ?? {})],
    args.map((a) => a?.name),
  );
  for (const [n, s] of [...Object.entries(config.flags ?? {}), ...Object.entries(config.persistentFlags ?? {})])
    checkFlag(name, n, s as FlagSpec);
  if (config.load !== undefined) {
    if (typeof config.load !== 'function')
      throw new TypeError(`Command ${name}: load must be a function returning the command (or its module)`);
    const extra = LOADED_ONLY.filter((k) => config[k] !== undefined);
    if (extra.length)
      throw new TypeError(
        `Command ${name}: a lazy command (load) declares only use, short, aliases, hidden and deprecated; ${extra.join(', ')} belong to the loaded command`,
      );
  }
}
