// A node:test reporter for commander's suite (commander.test.ts reads it): one JSON line
// per finished test or suite — its full name (ancestors' names and its own, joined by a space, as
// node's --test-name-pattern and --test-skip-pattern match it), file, whether it passed, was
// skipped, and the failure's message.
export default async function* reporter(source) {
  const names = [];
  for await (const event of source) {
    if (event.type === 'test:start') names[event.data.nesting] = event.data.name;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const d = event.data;
    const error = d.details?.error;
    yield `${JSON.stringify({
      name: [...names.slice(0, d.nesting), d.name].join(' '),
      file: d.file,
      suite: d.details?.type === 'suite',
      passed: event.type === 'test:pass',
      skipped: d.skip !== undefined && d.skip !== false,
      error: error === undefined ? undefined : String(error.cause?.message ?? error.message),
    })}\n`;
  }
}
