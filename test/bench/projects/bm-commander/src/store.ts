// The bookmarks store and JSON output of the peers' twins of bm (the same file format as bm's).
import { readFile, rename, writeFile } from 'node:fs/promises';

export interface Link {
  id: number;
  url: string;
  title: string;
  tags: string[];
}

export function storeFile(store: string | undefined): string {
  return store ?? process.env.BM_STORE ?? 'bm.json';
}

export async function load(file: string): Promise<Link[]> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Link[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

export async function save(file: string, links: Link[]): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(links));
  await rename(`${file}.tmp`, file);
}

/** Prints the payload as one JSON line, as bm does when its stdout is not a terminal. */
export function emit(data: unknown): void {
  process.stdout.write(`${JSON.stringify({ data })}\n`);
}

/** An error as one JSON line on stderr, exit `code`. */
export function fail(message: string, code: number): never {
  process.stderr.write(`${JSON.stringify({ error: { message } })}\n`);
  process.exit(code);
}
