// ESLint 9 flat config (`npm run lint`, run by `make lint`): JavaScript's and
// typescript-eslint's recommended rules, and the two rules of React hooks as
// errors — hooks called in the same order on every render, and every value
// an effect, memo or callback reads among its dependencies.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig([
  globalIgnores(['dist/', 'test-results/', 'playwright-report/', 'blob-report/', 'src/schema.gen.ts']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.mjs', '*.{js,ts}'],
    languageOptions: { globals: globals.node },
    rules: {
      // Playwright reads a fixture's dependencies from its first
      // parameter's pattern: a fixture needing none writes `{}`.
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
    },
  },
])
