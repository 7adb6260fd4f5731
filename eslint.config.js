import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Run-time code must not depend on test code: only tests and the test-harness tools import @ct/testkit.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'tests/**',
      '**/test-helpers.ts',
      'tests/kit/**',
      'bench/**',
      'load/**',
      'scripts/pagespeed.ts',
      // The data audits run the embedded app with the test harness (its own emulator and store).
      'scripts/data/audit/app.ts',
      'scripts/screenshots.ts',
      'vitest.config.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@ct/testkit', message: 'Run-time code must not import test code (@ct/testkit).' }],
          patterns: [
            { group: ['**/testkit/**'], message: 'Run-time code must not import test code (testkit).' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
