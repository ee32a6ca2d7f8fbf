/**
 * The mark on the commands ax-ts adds to a tree, and the rule that follows from it: a child the
 * author adds under the same name as one of them is the one a word finds (docs/mcp-server.md#installing-into-clients:
 * `mcp` and `skills` beside `mcp-server`, when the author's own comes after the mount).
 */

/** Annotation marking commands ax-ts injects (help, __schema, completion, doctor, `mcp`, `skills`…). */
export const BUILTIN_ANNOTATION = 'ax-ts/builtin';

/** What a child is found by. */
interface Named {
  name: string;
  aliases: readonly string[];
  annotations: Readonly<Record<string, string>>;
}

/** The one of `children` answering to `name` (its name, else an alias): the author's before ax-ts's. */
export function childNamed<C extends Named>(children: readonly C[], name: string): C | undefined {
  const by = (own: boolean) => {
    const fits = (c: C) => own !== (c.annotations[BUILTIN_ANNOTATION] === 'true');
    return (
      children.find((c) => c.name === name && fits(c)) ?? children.find((c) => c.aliases.includes(name) && fits(c))
    );
  };
  return by(true) ?? by(false);
}
