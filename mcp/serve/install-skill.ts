/**
 * `mcp-server --install <client> --skill`: the program's SKILL.md (as `__schema --as=skill` prints
 * it) put into each client's user-level Agent Skills folder, `<folder>/<name>/SKILL.md`, or taken out
 * by `--uninstall … --skill` (docs/mcp-server.md#installing-into-clients). Same rules as the server
 * entry (./install.ts): an unchanged file is not touched, a changed one is backed up first and
 * replaced atomically, `--print` writes nothing.
 */
import { copyFile, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from '../../lib/config/config.ts';
import { CLIENTS } from './install.ts';

type Env = Record<string, string | undefined>;

/** What happened (or would) to one client's copy of the skill. */
export interface SkillChange {
  client: string;
  /** The SKILL.md path; null for a client that has no skills folder. */
  file: string | null;
  action: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'unsupported';
  written: boolean;
  backup?: string;
}

const readOr = (file: string) => readFile(file, 'utf8').catch(() => undefined);

/**
 * Writes `text` as `<folder>/<name>/SKILL.md` for each client, or with `remove` takes it out (and
 * the skill's folder when that leaves it empty) — keeping a backup when the file there is not
 * `text`, the one this program would write (someone else's skill of the same name, or edited).
 */
export async function editSkills(
  clients: readonly string[],
  name: string,
  text: string,
  o: { env: Env; print: boolean; remove: boolean },
): Promise<SkillChange[]> {
  const out: SkillChange[] = [];
  for (const client of clients) {
    const folder = CLIENTS[client]!.skills?.(o.env);
    if (!folder) {
      out.push({ client, file: null, action: 'unsupported', written: false });
      continue;
    }
    const file = join(folder, name, 'SKILL.md');
    const was = await readOr(file);
    const action: SkillChange['action'] = o.remove
      ? was === undefined
        ? 'absent'
        : 'removed'
      : was === undefined
        ? 'added'
        : was === text
          ? 'unchanged'
          : 'updated';
    const written = !o.print && (action === 'added' || action === 'updated' || action === 'removed');
    const change: SkillChange = { client, file, action, written };
    if (written) {
      if (action === 'removed') {
        if (was !== text) await copyFile(file, (change.backup = join(folder, `${name}.SKILL.md.ax-ts.bak`)));
        await rm(file, { force: true });
        await rmdir(join(folder, name)).catch(() => {}); // only when nothing else is in it
      } else {
        if (was !== undefined) await copyFile(file, (change.backup = `${file}.ax-ts.bak`));
        else await mkdir(join(folder, name), { recursive: true });
        await writeAtomic(file, text, 0o644);
      }
    }
    out.push(change);
  }
  return out;
}
