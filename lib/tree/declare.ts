/**
 * `declarePrompt` / `declareResource`: attach checked MCP prompt and resource declarations to a
 * command. The rules live in declaration-rules.ts (docs/schema.md#declaration-rules).
 */
import type { Command } from './command.ts';
import { copyPrompt, copyResource, declarationError, validatePrompt, validateResource } from './declaration-rules.ts';
import type { PromptDecl, ResourceDecl } from './declarations.ts';

/**
 * Declares a prompt on a command (after those already there). The declaration is copied and frozen;
 * later changes to the object do not affect it. Any value — wrong types, `null`, functions, symbols,
 * unknown fields — is refused with an AxError, never a raw TypeError.
 * @throws AxError `invalid_schema_declaration` (exit 2) for any rule of {@link validatePrompt} or a
 *   name already declared on this command; the command is left unchanged.
 */
export function declarePrompt(cmd: Command, prompt: PromptDecl): void {
  validatePrompt(prompt);
  if (cmd.prompts.some((p) => p.name === prompt.name)) {
    throw declarationError(
      'prompt',
      prompt.name,
      'name',
      'duplicate',
      `Prompt ${prompt.name} is already declared on ${cmd.commandPath()}; rename one.`,
    );
  }
  cmd._declare('prompt', copyPrompt(prompt));
}

/**
 * Declares a resource on a command; copied and frozen like {@link declarePrompt}.
 * @throws AxError `invalid_schema_declaration` (exit 2) for any rule of {@link validateResource} or a
 *   URI already declared on this command; the command is left unchanged.
 */
export function declareResource(cmd: Command, resource: ResourceDecl): void {
  validateResource(resource);
  const key = resource.uri || resource.uriTemplate;
  if (cmd.resources.some((r) => (r.uri || r.uriTemplate) === key)) {
    throw declarationError(
      'resource',
      key!,
      resource.uri ? 'uri' : 'uriTemplate',
      'duplicate',
      `${key} is already declared on ${cmd.commandPath()}; remove one.`,
    );
  }
  cmd._declare('resource', copyResource(resource));
}
