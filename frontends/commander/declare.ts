/**
 * What an author declares about a commander command for agents, beside commander's own chain:
 * `ax(cmd).effects('read_only').output({ schema })`. Kept off the commander objects (a WeakMap), so
 * a declaration changes nothing of the program's own parsing, help or output (docs/frontends.md).
 */
import type { Command as CommanderCommand } from 'commander';
import type { Capability, Effects, PromptDecl, ResourceDecl } from '../../lib/index.ts';
import type { AxDeclarations } from '../shared/declare.ts';

export type { AxDeclarations } from '../shared/declare.ts';

const declared = new WeakMap<CommanderCommand, AxDeclarations>();

/**
 * Records `decl` for `cmd`, merged over what it has (field by field: `withAx`'s `commands` over
 * {@link ax}'s chain).
 */
export function declare(cmd: CommanderCommand, decl: Readonly<AxDeclarations>): void {
  declared.set(cmd, { ...declarationsOf(cmd), ...decl });
}

/** The declarations recorded for a commander command (empty when none). */
export function declarationsOf(cmd: CommanderCommand): Readonly<AxDeclarations> {
  return declared.get(cmd) ?? {};
}

/** The chain {@link ax} returns: each method records one declaration and returns the chain. */
export class AxChain {
  /** @param command the commander command the declarations are for. */
  constructor(readonly command: CommanderCommand) {}

  private set<K extends keyof AxDeclarations>(key: K, value: AxDeclarations[K]): this {
    declared.set(this.command, { ...declarationsOf(this.command), [key]: value });
    return this;
  }

  /** Declares what re-running the command does: `read_only`, `idempotent` or `non_idempotent`. */
  effects(effects: Effects): this {
    return this.set('effects', effects);
  }

  /** Declares ax-go's capability classes (`read-only`, `create`, `mutate`, `delete`, `external-network`, `admin`). */
  capabilities(...caps: Capability[]): this {
    return this.set('capabilities', caps);
  }

  /** Declares whether the command may destroy or overwrite data (MCP `destructiveHint`). */
  destructive(destructive = true): this {
    return this.set('destructive', destructive);
  }

  /** Declares the output: `{ schema }`, the JSON Schema of what the action returns (checked on every path). */
  output(output: NonNullable<AxDeclarations['output']>): this {
    return this.set('output', output);
  }

  /**
   * Declares options of the command that hold secrets (long names without dashes): each is a secret
   * flag of the twin — its MCP property marked `writeOnly`, `format: "password"`, its value redacted
   * in every error line, idempotency record and span (docs/frontends.md#what-does-not-map says what a
   * front end cannot hide: the value is on the program's own argv).
   */
  secret(...options: string[]): this {
    return this.set('secrets', [...(declarationsOf(this.command).secrets ?? []), ...options]);
  }

  /** Keeps the command out of the MCP tools (as `mcp.exclude` of `ax-ts`): it still runs from the command line. */
  withheld(): this {
    return this.set('withheld', true);
  }

  /** Declares an MCP prompt on the command (the shape `declarePrompt` of `ax-ts` takes). */
  prompt(prompt: PromptDecl): this {
    return this.set('prompts', [...(declarationsOf(this.command).prompts ?? []), prompt]);
  }

  /** Declares an MCP resource on the command (the shape `declareResource` of `ax-ts` takes). */
  resource(resource: ResourceDecl): this {
    return this.set('resources', [...(declarationsOf(this.command).resources ?? []), resource]);
  }
}

/**
 * Starts a declaration chain for a commander command: `ax(cmd).effects('read_only').output({schema})`.
 * Nothing is read until `__schema`, `mcp-server` or a json-mode call asks; the program's own
 * behaviour is unchanged. @returns the chain.
 */
export function ax(cmd: CommanderCommand): AxChain {
  return new AxChain(cmd);
}
