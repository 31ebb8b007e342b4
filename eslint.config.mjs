import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// What ships never leans on what only runs locally (see the product's rule below).
const toolsPattern = {
  regex: '^(@/|(\\./|(\\.\\./)+))?(tools|e2e|tests)(/|$)',
  message: 'The product must not import from tools/, e2e/ or tests/: they never run in a deployment.',
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    '.next-*/**',
    '.local/**',
    'node_modules/**',
    'next-env.d.ts',
    'sanity/types.generated.ts',
    'supabase/types.generated.ts',
    'test-results/**',
    'playwright-report/**',
    'docs/**',
  ]),
  {
    // Playwright fixtures call their callback `use`, which is not React's hook.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // What ships never leans on what only runs locally: the stand-ins, the owner's commands, bench,
    // load and test harnesses live in tools/ and are not part of a deployment, so an import from
    // there into the product is an error (tests/unit/tool-boundary.test.ts holds the rule to it).
    files: ['app/**', 'components/**', 'lib/**', 'sanity/**', '*.ts', '*.mjs'],
    ignores: ['playwright*.config.ts', 'vitest.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [toolsPattern],
        },
      ],
    },
  },
  {
    // lib/ is what every feature shares: it never imports a feature (components/) or a route (app/),
    // so a feature can be read, moved or deleted without reading lib/. The tools rule above is
    // restated here because a later `no-restricted-imports` replaces an earlier one.
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            toolsPattern,
            {
              regex: '^(@/|(\\.\\./)+)(components|app)(/|$)',
              message: 'lib/ is shared by every feature and imports none: move what both need into lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      // Internal links are plain anchors on purpose: every page is static HTML, and next/link's
      // client router and viewport prefetching cost about 4 kB of first-load JavaScript and
      // fetches a phone on a slow network did not ask for (issue #7's budget, docs/bench.md).
      '@next/next/no-html-link-for-pages': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
])
