import { describe, it, expect, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  StoreError,
  emptyStore,
  fingerprintArgs,
  readStore,
  resolveStorePath,
  updateStore,
  type StoreData,
  type Task,
} from '../../cmd/tasks/store.js';

const fixture = fileURLToPath(new URL('../fixtures/store-add.ts', import.meta.url));

const tmpDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tmpDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function tmpDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ax-tasks-store-'));
  tmpDirs.push(dir);
  return dir;
}

function task(id: number, title = `t${id}`): Task {
  return { id, title, status: 'open', tags: [], due: null, created_at: new Date().toISOString(), done_at: null };
}

/** Runs fn, expects it to reject with a StoreError, returns that error. */
async function storeError(fn: () => unknown): Promise<StoreError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StoreError);
    return e as StoreError;
  }
  throw new Error('expected a StoreError');
}

/** Pid of a process that has exited (spawned and reaped here). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  expect(child.pid).toBeTypeOf('number');
  return child.pid as number;
}

describe('resolveStorePath', () => {
  const home = path.join(path.sep, 'home', 'u');
  const xdg = path.join(path.sep, 'xdg');

  it('prefers the flag, then TASKS_FILE, then XDG_DATA_HOME, then HOME', () => {
    const env = { TASKS_FILE: path.join(path.sep, 'env.json'), XDG_DATA_HOME: xdg, HOME: home };
    expect(resolveStorePath(path.join(path.sep, 'flag.json'), env)).toBe(path.join(path.sep, 'flag.json'));
    expect(resolveStorePath(undefined, env)).toBe(path.join(path.sep, 'env.json'));
    expect(resolveStorePath(undefined, { XDG_DATA_HOME: xdg, HOME: home })).toBe(
      path.join(xdg, 'ax-tasks', 'tasks.json'),
    );
    expect(resolveStorePath(undefined, { HOME: home })).toBe(
      path.join(home, '.local', 'share', 'ax-tasks', 'tasks.json'),
    );
  });

  it('resolves relative flag / TASKS_FILE values against cwd', () => {
    expect(resolveStorePath('rel/t.json', {})).toBe(path.resolve(process.cwd(), 'rel/t.json'));
    expect(resolveStorePath(undefined, { TASKS_FILE: 'e.json', HOME: '/h' })).toBe(
      path.resolve(process.cwd(), 'e.json'),
    );
  });

  it('throws store_path_unknown when nothing is available', () => {
    try {
      resolveStorePath(undefined, {});
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(StoreError);
      const err = e as StoreError;
      expect(err.code).toBe('store_path_unknown');
      expect(err.fix).toMatch(/--store/);
      expect(err.fix).toMatch(/TASKS_FILE/);
    }
  });
});

describe('readStore', () => {
  it('returns an empty store for a missing file without creating it', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    expect(await readStore(file)).toEqual({ version: 1, next_id: 1, tasks: [], idempotency: {} });
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it.each([
    ['invalid JSON', '{not json'],
    ['wrong version', '{"version":2,"next_id":1,"tasks":[],"idempotency":{}}'],
    ['bad task', '{"version":1,"next_id":2,"tasks":[{"id":1}],"idempotency":{}}'],
    ['id not below next_id', JSON.stringify({ ...emptyStore(), tasks: [task(1)] })],
  ])('reports store_corrupt (%s) and leaves the file alone', async (_name, content) => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    await fs.writeFile(file, content);
    const err = await storeError(() => readStore(file));
    expect(err.code).toBe('store_corrupt');
    expect(err.path).toBe(file);
    expect(err.message).toContain(file);
    expect(err.fix).toMatch(/move it away/);
    expect(await fs.readFile(file, 'utf8')).toBe(content);
  });

  it('says where the JSON breaks, never quoting the file (an agent may read the message)', async () => {
    const file = path.join(await tmpDir(), 'tasks.json');
    await fs.writeFile(file, '{"secret-token-abc123": nope');
    const message = (await storeError(() => readStore(file))).message;
    expect(message).toMatch(/is corrupt: invalid JSON( \(at byte offset \d+\))?$/);
    expect(message).not.toContain('secret-token');
    expect(message).not.toContain('nope');
  });
});

describe('updateStore', () => {
  it('creates parent directories (0o700) and writes the store atomically', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'a', 'b', 'tasks.json');
    const id = await updateStore(file, (d) => {
      const t = task(d.next_id++);
      d.tasks.push(t);
      d.idempotency.k1 = { fingerprint: fingerprintArgs({ title: t.title }), result: t };
      return t.id;
    });
    expect(id).toBe(1);
    const data = JSON.parse(await fs.readFile(file, 'utf8')) as StoreData;
    expect(data.next_id).toBe(2);
    expect(data.tasks.map((t) => t.id)).toEqual([1]);
    expect(await readStore(file)).toEqual(data);
    expect(await fs.readdir(path.dirname(file))).toEqual(['tasks.json']);
    if (process.platform !== 'win32') {
      expect((await fs.stat(path.join(dir, 'a'))).mode & 0o777).toBe(0o700);
      expect((await fs.stat(path.join(dir, 'a', 'b'))).mode & 0o777).toBe(0o700);
    }
  });

  it('refuses a corrupt store: mutate not called, bytes unchanged, no leftovers', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    await fs.writeFile(file, '{not json');
    let called = false;
    const err = await storeError(() =>
      updateStore(file, () => {
        called = true;
      }),
    );
    expect(err.code).toBe('store_corrupt');
    expect(called).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe('{not json');
    expect(await fs.readdir(dir)).toEqual(['tasks.json']);
  });

  it('writes nothing when mutate throws, and leaves no .tmp or .lock', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    await updateStore(file, (d) => {
      d.tasks.push(task(d.next_id++));
    });
    const before = await fs.readFile(file, 'utf8');
    await expect(
      updateStore(file, (d) => {
        d.tasks.push(task(d.next_id++));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(await fs.readdir(dir)).toEqual(['tasks.json']);
  });

  it('serialises concurrent updates within one process', async () => {
    const file = path.join(await tmpDir(), 'tasks.json');
    const ids = await Promise.all(
      Array.from({ length: 10 }, () =>
        updateStore(file, async (d) => {
          const id = d.next_id++;
          await new Promise((r) => setTimeout(r, 1));
          d.tasks.push(task(id));
          return id;
        }),
      ),
    );
    expect([...ids].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await readStore(file)).tasks).toHaveLength(10);
  });

  it.each([false, true])(
    'serialises 20 concurrent writer processes without losing updates (stale lock present: %s)',
    async (stale) => {
      const dir = await tmpDir();
      const file = path.join(dir, 'tasks.json');
      if (stale)
        await fs.writeFile(
          `${file}.lock`,
          JSON.stringify({ pid: await deadPid(), created_at: new Date().toISOString(), token: 'x' }),
        );
      const runs = Array.from(
        { length: 20 },
        () =>
          new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', fixture, file], {
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let out = '';
            let err = '';
            child.stdout.on('data', (b: Buffer) => {
              out += b.toString();
            });
            child.stderr.on('data', (b: Buffer) => {
              err += b.toString();
            });
            child.on('error', reject);
            child.on('close', (code) => resolve({ code, out, err }));
          }),
      );
      const results = await Promise.all(runs);
      for (const r of results) expect(r.code, r.err).toBe(0);
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as StoreData;
      const ids = data.tasks.map((t) => t.id).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(data.next_id).toBe(21);
      expect(results.map((r) => Number(r.out.trim())).sort((a, b) => a - b)).toEqual(ids);
      expect(await fs.readdir(dir)).toEqual(['tasks.json']);
    },
    60_000,
  );

  it('breaks a stale lock left by a dead process', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    const pid = await deadPid();
    await fs.writeFile(`${file}.lock`, JSON.stringify({ pid, created_at: new Date().toISOString(), token: 'x' }));
    expect(await updateStore(file, () => 'ok', { lockTimeoutMs: 2000 })).toBe('ok');
    expect(await fs.readdir(dir)).toEqual(['tasks.json']);
  });

  it('breaks a lock older than 30 s even if its pid is alive', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    const old = new Date(Date.now() - 60_000);
    await fs.writeFile(`${file}.lock`, JSON.stringify({ pid: process.pid, created_at: old.toISOString(), token: 'x' }));
    await updateStore(
      file,
      (d) => {
        d.tasks.push(task(d.next_id++));
      },
      { lockTimeoutMs: 2000 },
    );
    expect((await readStore(file)).tasks).toHaveLength(1);
    expect(await fs.readdir(dir)).toEqual(['tasks.json']);
  });

  it('times out with store_locked on a live lock, naming the lock file, and keeps that lock', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    const lock = `${file}.lock`;
    const body = JSON.stringify({ pid: process.pid, created_at: new Date().toISOString(), token: 'other' });
    await fs.writeFile(lock, body);
    let called = false;
    const started = Date.now();
    const err = await storeError(() =>
      updateStore(
        file,
        () => {
          called = true;
        },
        { lockTimeoutMs: 200 },
      ),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(err.code).toBe('store_locked');
    expect(err.path).toBe(lock);
    expect(err.fix).toContain(lock);
    expect(called).toBe(false);
    expect(await fs.readFile(lock, 'utf8')).toBe(body);
  });

  it('stops waiting for the lock when the signal aborts', async () => {
    const file = path.join(await tmpDir(), 'tasks.json');
    await fs.writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: process.pid, created_at: new Date().toISOString(), token: 'other' }),
    );
    await expect(updateStore(file, () => 1, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});

describe('updateStore under attack', () => {
  it('item 9: a lock always names its owner: taken by linking a written file, never empty (checked while 4 writers race)', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    let seen = 0;
    let bad = '';
    let stop = false;
    const watch = (async () => {
      while (!stop) {
        try {
          const raw = await fs.readFile(`${file}.lock`, 'utf8');
          seen++;
          const body = JSON.parse(raw) as { pid?: unknown };
          if (typeof body.pid !== 'number') bad = raw;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') bad = String(e);
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(
      Array.from({ length: 4 }, () =>
        (async () => {
          for (let i = 0; i < 15; i++)
            await updateStore(file, (d) => {
              d.tasks.push(task(d.next_id++));
            });
        })(),
      ),
    );
    stop = true;
    await watch;
    expect(bad).toBe('');
    expect(seen).toBeGreaterThan(0);
    expect((await readStore(file)).tasks).toHaveLength(60);
  }, 30_000);

  it("item 9: a dead owner's lock is recovered at once; so is a dead breaker's guard", async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    const pid = await deadPid();
    await fs.writeFile(`${file}.lock`, JSON.stringify({ pid, created_at: new Date().toISOString(), token: 'x' }));
    await fs.writeFile(`${file}.lock.break`, JSON.stringify({ pid, created_at: new Date().toISOString(), token: 'y' }));
    const t0 = Date.now();
    expect(await updateStore(file, () => 'ok', { lockTimeoutMs: 60_000 })).toBe('ok');
    expect(Date.now() - t0).toBeLessThan(15_000); // unrecovered, it would wait the whole 60 s
    expect(await fs.readdir(dir)).toEqual(['tasks.json']);
  });

  it('item 9: an empty lock (a writer of an older version killed between create and write) blocks for about 1 s, not 30 s', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    await fs.writeFile(`${file}.lock`, '');
    const t0 = Date.now();
    expect(await updateStore(file, () => 'ok', { lockTimeoutMs: 60_000 })).toBe('ok');
    expect(Date.now() - t0).toBeLessThan(15_000); // the stale-lock age (30 s) or the timeout would be far longer
  });

  it('item 10: a symlinked store is written through to its target; the link stays and the mode is kept', async () => {
    const dir = await tmpDir();
    const target = path.join(dir, 'real', 'tasks.json');
    await fs.mkdir(path.dirname(target));
    await fs.writeFile(target, `${JSON.stringify(emptyStore())}\n`, { mode: 0o640 });
    await fs.chmod(target, 0o640);
    const link = path.join(dir, 'link.json');
    await fs.symlink(path.relative(dir, target), link);
    await updateStore(link, (d) => {
      d.tasks.push(task(d.next_id++));
    });
    await updateStore(link, (d) => {
      d.tasks.push(task(d.next_id++));
    });
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect((await readStore(target)).tasks.map((t) => t.id)).toEqual([1, 2]);
    expect((await fs.stat(target)).mode & 0o777).toBe(0o640);
    expect((await fs.readdir(path.dirname(target))).sort()).toEqual(['tasks.json']);
    // a dangling link: the target is created
    const dangling = path.join(dir, 'dangling.json');
    await fs.symlink('real/new.json', dangling);
    await updateStore(dangling, (d) => {
      d.tasks.push(task(d.next_id++));
    });
    expect((await fs.lstat(dangling)).isSymbolicLink()).toBe(true);
    expect((await readStore(path.join(dir, 'real', 'new.json'))).tasks).toHaveLength(1);
  });

  it("item 11: temp files of killed writers (store and lock temps with a dead pid) are removed; a live writer's are kept", async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    const pid = await deadPid();
    const leftovers = [`tasks.json.${pid}.a1b2c3d4e5f6.tmp`, `tasks.json.lock.${pid}.0a0b0c0d0e0f.tmp`];
    for (const n of leftovers) await fs.writeFile(path.join(dir, n), 'partial');
    const live = `tasks.json.${process.pid}.ffffffffffff.tmp`;
    await fs.writeFile(path.join(dir, live), 'in progress');
    await updateStore(file, (d) => {
      d.tasks.push(task(d.next_id++));
    });
    expect((await fs.readdir(dir)).sort()).toEqual(['tasks.json', live].sort());
  });

  it('item 11: a next_id past 2^53 − 1 is store_corrupt (in the file, or reached by an add), and nothing is written', async () => {
    const dir = await tmpDir();
    const file = path.join(dir, 'tasks.json');
    await fs.writeFile(file, '{"version":1,"next_id":9007199254740993,"tasks":[],"idempotency":{}}\n');
    expect((await storeError(() => updateStore(file, () => 1))).code).toBe('store_corrupt');
    const max = `{"version":1,"next_id":${Number.MAX_SAFE_INTEGER},"tasks":[],"idempotency":{}}\n`;
    await fs.writeFile(file, max);
    const err = await storeError(() =>
      updateStore(file, (d) => {
        d.tasks.push(task(d.next_id++));
      }),
    );
    expect(err.code).toBe('store_corrupt');
    expect(err.message).toMatch(/2\^53/);
    expect(await fs.readFile(file, 'utf8')).toBe(max);
  });
});

describe('fingerprintArgs', () => {
  it('is a sha256 hex independent of key order', () => {
    const a = fingerprintArgs({ title: 'x', tags: ['a'], due: undefined });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintArgs({ tags: ['a'], title: 'x' })).toBe(a);
    expect(fingerprintArgs({ tags: ['b'], title: 'x' })).not.toBe(a);
  });
});
