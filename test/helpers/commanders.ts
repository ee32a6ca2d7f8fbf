/**
 * The commander versions the front end claims (docs/frontends.md), for `describe.each`: each row is
 * the version and the environment that makes a fixture built on test/frontends/fixtures/commander-module.ts
 * use it.
 */
export const COMMANDERS: [version: string, env: Record<string, string>][] = [
  ['15', {}],
  ['14', { AX_COMMANDER: '14' }],
];
