// Types of .ci/bundle.mjs for the tests that build a program with it (test/bundle-lazy.test.ts).
/** Builds one program: entry, bundle and lazy chunks (see .ci/bundle.mjs). */
export function buildProgram(o: {
  entry: string;
  outDir: string;
  name: string;
  precomputeAnswers?: boolean;
}): Promise<{ metafile: object; entry: string; main: string; chunks: string[] }>;
/** Builds the heavy chunks into `<outDir>/chunks/`. */
export function buildHeavyChunks(outDir: string): Promise<object>;
