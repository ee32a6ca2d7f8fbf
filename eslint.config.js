// Lint rules of the house (docs/architecture.md#house-style): typescript-eslint's recommended set, plus
// the two type-aware rules that catch what tsc lets through: a `switch` over a union that misses a
// member (a new flag type or error kind not taught everywhere) and a promise nobody awaits or handles.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'lib/vendor/', 'test/ports/*/.suite/', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        globalThis: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        fetch: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      // erased generics (`Command<any, any, any>`) are how a tree holds commands of any flag shape
      '@typescript-eslint/no-explicit-any': 'off',
      // walking up from `this` (`let c: Command = this; c.parent …`) is how a tree is climbed
      '@typescript-eslint/no-this-alias': 'off',
      // `{}` is "no flags declared" in Command's generic defaults
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always', allowInterfaces: 'always' }],
      // a closure may read a binding that is assigned once, later (main()'s endAfterSignal)
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // one module, one job: a file of mcp/ or frontends/ stays under 400 lines (docs/architecture.md#house-style)
    files: ['mcp/**/*.ts', 'frontends/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // tests match raw bytes (control characters, runs of spaces) and rethrow with their own message
    files: ['test/**'],
    rules: { 'no-control-regex': 'off', 'no-regex-spaces': 'off', 'preserve-caught-error': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
