/**
 * The protocol eras a server speaks, by the name the SDK gives a connection's or a request's era
 * (docs/mcp-server.md#protocol-eras). Typed by EraName: a name without its era, or an era that
 * misses a member of `Era` (mcp/call/era.ts), does not compile. A new protocol revision is one
 * more file here, its name in EraName (mcp/base/eras.ts) and its entry below.
 */
import type { EraName } from '../../base/eras.ts';
import type { Era } from '../../call/era.ts';
import { ERA_2025 } from './2025.ts';
import { ERA_2026_07_28 } from './2026-07-28.ts';

/** Every era, by name. */
export const ERAS: { readonly [N in EraName]: Era & { readonly name: N } } = {
  legacy: ERA_2025 as Era & { name: 'legacy' },
  modern: ERA_2026_07_28 as Era & { name: 'modern' },
};
