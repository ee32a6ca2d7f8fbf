/**
 * What differs between the protocol eras is said once, by each era's implementation of `Era`
 * (mcp/call/era.ts, the eras in mcp/protocol/eras/; docs/architecture.md#mcp-room-by-room): no other
 * file of mcp/ tests which era it serves (`era === 'modern'`) or sniffs the era from what a request
 * carries (a call's declared capabilities present or not, the `_meta` keys of the 2026-07-28 era).
 * The check reads the sources as text, and is proven on planted lines.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeLinesMatching, sourceLinesMatching } from '../helpers/layers.ts';
import { ERAS } from '../../mcp/protocol/eras/index.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The era files, and the module that defines the era names and the `_meta` keys. */
const EXEMPT = (f: string) => f.startsWith('mcp/protocol/eras/') || f === 'mcp/base/eras.ts';

/** The shapes of an era test or a capability sniff. */
const SNIFF = [
  /\bera(Name)?\s*[!=]==|[!=]==\s*(\w+\.)?era(Name)?\b/,
  /\bextra\??\.capabilities\b/,
  /\bCLIENT_CAPABILITIES_META_KEY\b/,
  /\bLOG_LEVEL_META_KEY\b/,
];

/** The lines of `text` that match. */
const sniffs = (text: string) => codeLinesMatching(text, SNIFF);

describe('each protocol era is one implementation of Era', () => {
  it('no file of mcp/ outside the era files tests or sniffs the era', () => {
    const found = sourceLinesMatching(repo, ['mcp'], EXEMPT, SNIFF);
    expect(found).toEqual([]);
  });

  it.each([
    ["if (era === 'modern') capabilities.extensions = {};"],
    ["    return super.connect(this.era === 'legacy' ? legacyWire(transport) : transport);"],
    ['  if (extra.capabilities && ref.command.task && !extra.inTask) {'],
    ['const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY];'],
    ["const floor = typeof envelope?.[LOG_LEVEL_META_KEY] === 'string' ? 1 : -1;"],
  ])('finds a planted one: %s', (line) => {
    expect(sniffs(`const a = 1;\n${line}\n`)).toEqual([line]);
  });

  it('the registry holds one era per name, each under its own name', () => {
    expect(Object.entries(ERAS).map(([name, era]) => [name, era.name])).toEqual([
      ['legacy', 'legacy'],
      ['modern', 'modern'],
    ]);
  });
});
