import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// What ships never leans on what only runs locally (see the product's rule below).
const toolsPattern = {
  regex: '^(@/|(\\./|(\\.\\./)+))?(tools|e2e|tests)(/|$)',
  message: 'The product must not import from tools/, e2e/ or tests/: they never run in a deployment.',
}

// The layers above a folder, as an import names them: through the path alias, or relative
// (./ from the root's files, ../ from inside a folder). Names are regex alternatives.
const ROUTES = 'app|proxy|instrumentation|next\\.config'
const CONTENT = 'sanity|sanity\\.config|sanity\\.cli'
const layersAbove = (names) => `^(@/|\\./|(\\.\\./)+)(${names})(/|(\\.ts)?$)`

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
  // The layers, bottom to top: lib/ (what every feature shares, reading no content), sanity/ with
  // sanity.config.ts and sanity.cli.ts (the content model and its read path), components/ (the
  // features), the routes (app/, proxy.ts, instrumentation.ts, next.config.ts). A layer imports only
  // those below it, so no import runs back up and no circle can form between folders
  // (docs/engineers.md, "Layers"; tests/unit/layers.test.ts reads the whole graph). The tools rule
  // above is restated in each block because a later `no-restricted-imports` replaces an earlier one.
  {
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            toolsPattern,
            {
              regex: layersAbove(`${ROUTES}|components|${CONTENT}`),
              message:
                'lib/ is shared by every feature and imports none, nor the content (sanity/): move what both need into lib/, or move the code that reads content up into sanity/ or components/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['sanity/**', 'sanity.config.ts', 'sanity.cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            toolsPattern,
            {
              regex: layersAbove(`${ROUTES}|components`),
              message:
                'sanity/ is the content model and its read path, below the features and routes that use it: move what the Studio or a query needs into sanity/ (or lib/), and keep rendering in components/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            toolsPattern,
            {
              regex: layersAbove(ROUTES),
              message: 'components/ holds the features the routes compose and imports no route: move what both need into components/ (or below).',
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
