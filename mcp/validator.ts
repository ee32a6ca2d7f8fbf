/** Tool-argument validation lives in lib/arguments.ts (shared with `--args-json`); re-exported for the server. */
export { validateArguments, validatorFor, dropNulls, toValidationError } from '../lib/arguments.ts';
