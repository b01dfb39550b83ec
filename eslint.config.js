import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The validators are generated (npm run schemas:compile): tsc checks them, test/schemas.test.ts keeps them current.
  { ignores: ['node_modules/', 'reports/', 'dist/', '.stryker-tmp/', 'src/validators/validators.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // A function fits on a screen; the self-tests' describe blocks are lists of cases and may run longer.
    files: ['src/**/*.{ts,js}', 'specs/**/*.ts', 'scripts/**/*.ts', 'bin/**/*.js', 'test/helpers/**/*.ts', 'test/lab/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['bin/**/*.js', 'src/judge/judging-thread.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
