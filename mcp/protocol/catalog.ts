/**
 * Prompts, resources and completion: `prompts/list`, `prompts/get`, `resources/list`,
 * `resources/templates/list`, `resources/read` and `completion/complete`, from the prompts and
 * resources the tree declares (static: the same for every client, in both eras). Sources: MCP
 * 2025-11-25 and 2026-07-28 server features "Prompts", "Resources", "Completion".
 */
import type { Server } from '@modelcontextprotocol/server';
import { readDeclared } from '../../lib/tree/declarations.ts';
import { completeValue } from '../../lib/completion/completion.ts';
import { promptListEntry, resourceListEntry } from '../../lib/schema/walk.ts';
import { promptMessages, resourceContents } from '../base/content.ts';
import { RESOURCE_NOT_FOUND, rpcError } from '../base/eras.ts';
import type { McpModel } from '../call/model.ts';
import { readSkillFile, skillResourceEntries, type ServedSkill } from './skills.ts';

type Own = <A extends unknown[], R>(handler: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;

/**
 * Registers the prompt, resource and completion handlers on `server` (each wrapped by `own`); the
 * resources include the program's skill files when it is served (skills.ts), after the declared ones.
 */
export function registerCatalog(server: Server, model: McpModel, own: Own, skill?: () => ServedSkill): void {
  registerCompletion(server, model, own);
  registerPrompts(server, model, own);

  server.setRequestHandler(
    'resources/list',
    own(async () => ({
      resources: [
        ...model.resources.filter((r) => r.decl.uri).map((r) => resourceListEntry(r.decl)),
        ...(skill ? skillResourceEntries(skill()) : []),
      ] as never,
    })),
  );

  server.setRequestHandler(
    'resources/templates/list',
    own(async () => ({
      resourceTemplates: model.resources
        .filter((r) => r.decl.uriTemplate)
        .map((r) => resourceListEntry(r.decl)) as never,
    })),
  );

  server.setRequestHandler(
    'resources/read',
    own(async (request) => {
      const uri = request.params.uri;
      const file = skill && readSkillFile(skill(), uri);
      if (file) return { contents: [file] };
      let rc;
      try {
        rc = readDeclared(
          model.resources.map((r) => r.decl),
          uri,
        );
      } catch {
        // a malformed percent-escape in a variable: the client's fault, not an internal error
        throw rpcError(
          -32602,
          `Malformed URI ${JSON.stringify(uri)}: a percent-escape is not valid UTF-8 or not two hex digits`,
          { uri },
        );
      }
      if (rc) return { contents: [resourceContents(rc) as never] };
      // -32602 is the 2026-07-28 revision's code; a 2025-era client gets -32002 (eras.ts legacyWire)
      throw rpcError(-32602, `${RESOURCE_NOT_FOUND}${uri}`, { uri });
    }),
  );
}

/** `completion/complete`: a prompt's argument or a resource template's variable. */
function registerCompletion(server: Server, model: McpModel, own: Own): void {
  // completion/complete: a prompt argument or template variable is completed from the positional or
  // flag of that name on the command the prompt/resource is declared on — the same choices and
  // completer callbacks that shell completion uses (lib/completion completeValue).
  server.setRequestHandler(
    'completion/complete',
    own(async (request) => {
      const ref = request.params.ref;
      const owner =
        ref.type === 'ref/prompt'
          ? model.prompts.find((p) => p.decl.name === ref.name)
          : model.resources.find((r) => r.decl.uriTemplate === ref.uri || r.decl.uri === ref.uri);
      if (!owner)
        throw rpcError(
          -32602,
          `Unknown ${ref.type === 'ref/prompt' ? 'prompt' : 'resource'}: ${ref.type === 'ref/prompt' ? ref.name : ref.uri}`,
        );
      const arg = request.params.argument;
      const known =
        'template' in owner.decl
          ? (owner.decl.arguments ?? []).some((a) => a.name === arg.name)
          : new RegExp(`\\{${arg.name.replace(/[^A-Za-z0-9_]/g, '')}\\}`).test(owner.decl.uriTemplate ?? '');
      if (!known)
        throw rpcError(
          -32602,
          `${ref.type === 'ref/prompt' ? `Prompt ${ref.name}` : `Resource template ${ref.uri}`} ` +
            `has no argument ${JSON.stringify(arg.name)}`,
        );
      let values: string[];
      try {
        values = (await completeValue(owner.command, arg.name, arg.value)).map((c) => c.value);
      } catch (e) {
        throw rpcError(-32603, `completion of ${arg.name} failed: ${(e as Error)?.message ?? String(e)}`);
      }
      return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
    }),
  );
}

/** `prompts/list` and `prompts/get`: the declared prompts, their arguments checked. */
function registerPrompts(server: Server, model: McpModel, own: Own): void {
  server.setRequestHandler(
    'prompts/list',
    own(async () => ({ prompts: model.prompts.map((p) => promptListEntry(p.decl)) as never })),
  );

  server.setRequestHandler(
    'prompts/get',
    own(async (request) => {
      const found = model.prompts.find((p) => p.decl.name === request.params.name);
      if (!found) throw rpcError(-32602, `Unknown prompt: ${request.params.name}`);
      const decl = found.decl;
      const given = request.params.arguments ?? {};
      const declared = (decl.arguments ?? []).map((a) => a.name);
      for (const k of Object.keys(given))
        if (!declared.includes(k))
          throw rpcError(
            -32602,
            `Prompt ${decl.name} has no argument ${JSON.stringify(k)} (declared: ${declared.join(', ') || 'none'})`,
          );
      // own properties only: an argument named `constructor` or `toString` is a plain name
      for (const a of decl.arguments ?? [])
        if (a.required && (!Object.hasOwn(given, a.name) || given[a.name] === undefined || given[a.name] === null))
          throw rpcError(-32602, `Prompt ${decl.name} needs the argument ${JSON.stringify(a.name)}`);
      const messages = promptMessages(
        decl,
        given,
        model.resources.map((r) => r.decl),
      );
      return { ...(decl.description ? { description: decl.description } : {}), messages: messages as never };
    }),
  );
}
