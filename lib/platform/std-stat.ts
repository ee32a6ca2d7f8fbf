/**
 * The fstat of a standard descriptor (0, 1 or 2), always with `bigint: true`. Node's ordinary
 * `fstatSync` fills a buffer it shares with its module loader; done on fd 1 or 2 while they are
 * pipes, it has made modules loaded afterwards through a symlinked `node_modules` (pnpm's global
 * virtual store, `npm link`) resolve under the link's path and come back empty (`{}`: "Ajv2020 is
 * not a constructor"). The bigint form fills a buffer of its own (docs/shipping.md#installs). Node
 * built-ins only: the entry of a built program (lib/build/entry.ts) uses it too.
 */
import { fstatSync, type BigIntStats } from 'node:fs';

/** `fstatSync(fd, { bigint: true })`. @throws the file system's error (EBADF for a closed descriptor). */
export function stdStat(fd: 0 | 1 | 2): BigIntStats {
  return fstatSync(fd, { bigint: true });
}
