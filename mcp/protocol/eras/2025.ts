/**
 * The 2025 era (revisions 2024-10-07 … 2025-11-25; docs/mcp-server.md#protocol-eras): an
 * `initialize` handshake opens a session, whose capabilities say what the client can be asked
 * (elicitation, sampling, roots: asked while the call waits) and whose `logging/setLevel` sets the
 * log floor. Results are always objects. Source: MCP 2025-11-25 specification.
 */
import { legacyWire } from '../../base/eras.ts';
import { interactionFor } from '../../call/interact.ts';
import { defOf } from '../../call/tools.ts';
import type { Era } from '../../call/era.ts';

/** The 2025 era. */
export const ERA_2025: Era = {
  name: 'legacy',
  advertise() {},
  // an unknown resource answered with this revision's code, -32002
  wire: legacyWire,
  toolList: (model) => (model.toolList ??= model.refs.map((r) => defOf(model, r))),
  toolEntry: (model, ref) => defOf(model, ref),
  logFloor: (sessionFloor) => sessionFloor,
  asking: (server, ctx) => ({ interaction: interactionFor(server, ctx) }),
  task: () => undefined,
  round: () => undefined,
  undeclared: () => undefined,
  // always an object: a non-object payload wrapped as `{result}`, a stream's items as `{items}`
  structured: (wrapping, value) => ({ [wrapping]: value }),
  // the 2025-era SDK client checks any structuredContent against the outputSchema even on an isError
  // result, and would turn the failure into a -32602 error that hides it: none for a tool that has one
  failureStructured: (wrapping) => wrapping === undefined,
  extensionResult: (result) => result,
  register() {},
};
