// The type-aware linter (docs/style.md): only rules that catch real faults in this code base, most
// with the type checker behind them. Formatting is Biome's (biome.json), not ESLint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Generated code (npm run gen:operations), build output and plain JS (this file) are not linted.
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.cdk.out/',
      '.local/',
      'coverage/',
      'shared/http/operations/',
      'shared/openapi/generated/',
      'shared/widget/generated/',
      'openapi.d.ts',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      // ignoreRestSiblings: `const { pk, sk, ...values } = item` names the fields it leaves out, as
      // TypeScript's noUnusedLocals allows too.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-unused-expressions': 'error',
      // TypeBox's own `Type` holds every builder, and a bundle that imports it keeps them all
      // (shared/schemas/typebox.ts): its types, yes; its `Type`, from there.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@sinclair/typebox',
              importNames: ['Type'],
              message:
                "import { Type } from shared/schemas/typebox.ts: the package's Type keeps every builder in a bundle",
            },
          ],
        },
      ],
    },
  },
  {
    // The facade itself re-exports the package's types.
    files: ['shared/schemas/typebox.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
