// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { castReason } from './tools/eslint/cast-reason.js';

// domain/ holds the spec's rules and must stay pure: no frameworks, no I/O, no hidden clock or
// randomness. This is enforced here rather than remembered.
const domainPurity = {
  files: ['src/domain/**/*.ts'],
  ignores: ['src/domain/**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              'node:*',
              'fs',
              'net',
              'http',
              'https',
              'crypto',
              'os',
              'path',
              'child_process',
            ],
            message: 'domain/ does no I/O.',
          },
          {
            group: [
              'fastify*',
              '@fastify/*',
              'better-sqlite3',
              'pg',
              'pino',
              'prom-client',
              'undici',
              'smpp',
              'commander',
            ],
            message: 'domain/ imports no frameworks or drivers.',
          },
          {
            group: [
              '**/api/**',
              '**/store/**',
              '**/dispatch/**',
              '**/channels/**',
              '**/console/**',
              '**/cli/**',
              '**/config/**',
            ],
            message:
              'Dependencies point inward: domain/ imports nothing from the layers around it.',
          },
        ],
      },
    ],
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
        message: 'Take `now` as an argument.',
      },
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message: 'Take `now` as an argument.',
      },
      {
        selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
        message: 'Take a random source as an argument.',
      },
    ],
  },
};

// All SQL lives in store/: nothing else may reach for a driver, or for an adapter. A thread that
// needs a store connection of its own opens it through store/open-store.ts with the main
// thread's StoreShare. (Rooms with rules of their own below repeat these: in a flat config the
// last block that sets a rule for a file is the one that holds.)
const STORE_ADAPTERS = {
  group: ['**/store/sqlite/**', '**/store/postgres/**'],
  message: 'Only store/ knows its adapters: open a store with store/open-store.ts.',
};
const DRIVERS = [
  { name: 'better-sqlite3', message: 'SQL lives in store/.' },
  { name: 'pg', message: 'SQL lives in store/.' },
];
const sqlOnlyInStore = {
  files: ['src/**/*.ts'],
  ignores: ['src/store/**', 'src/domain/**'],
  rules: {
    'no-restricted-imports': ['error', { paths: DRIVERS, patterns: [STORE_ADAPTERS] }],
  },
};

// Channels are self-contained: a channel knows the domain, its config and the rate limiter; the
// dispatcher and the HTTP server know channels through channel.ts, never the other way round.
const channelsSelfContained = {
  files: ['src/channels/**/*.ts', 'src/rate-limit/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/api/**', '**/dispatch/**', '**/console/**', '**/cli/**', '**/gateway/**'],
            message:
              'channels/ imports nothing from the dispatcher, the API, the console or the CLI.',
          },
          STORE_ADAPTERS,
        ],
        paths: DRIVERS,
      },
    ],
  },
};

// The store is an adapter of the domain's ports: it knows the domain and the config, no caller.
const storeInward = {
  files: ['src/store/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/api/**', '**/dispatch/**', '**/channels/**', '**/console/**', '**/cli/**'],
            message: 'store/ implements the ports of domain/ and imports none of its callers.',
          },
        ],
      },
    ],
  },
};

// The dispatcher moves messages to channels through channel.ts: it knows no API or console.
const dispatchInward = {
  files: ['src/dispatch/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/api/**', '**/console/**', '**/cli/**', '**/store/**'],
            message: 'dispatch/ works through the ports and channel.ts only.',
          },
        ],
      },
    ],
  },
};

// The outbox worker reads the store through its port and sends over HTTP: it knows no caller.
const outboxInward = {
  files: ['src/outbox/**/*.ts'],
  // The outbox thread's entry is its composition root: it opens the thread's own store.
  ignores: ['src/outbox/outbox-thread.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              '**/api/**',
              '**/console/**',
              '**/cli/**',
              '**/store/**',
              '**/dispatch/**',
              '**/channels/**',
            ],
            message: 'outbox/ works through the ports: it imports no API, store or channel.',
          },
        ],
      },
    ],
  },
};

// The faces (docs/architecture.md) read their wire and call core/: none imports another. What two
// faces share is a use case (core/) or HTTP plumbing (http/). The SMPP server face also works
// through the ports alone: no store at all.
const FACES = ['api', 'console', 'cli', 'smpp-server'];
const facesApart = FACES.map((face) => ({
  files: [`src/${face}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: DRIVERS,
        patterns: [
          {
            // Up to src/, then into another face (domain/smpp-server/ is the domain's, not one).
            regex: `^(\\.\\./)+(${FACES.filter((f) => f !== face).join('|')})/`,
            message: `${face}/ is a face: it calls core/ (or http/), never another face.`,
          },
          face === 'smpp-server'
            ? {
                group: ['**/store/**'],
                message: 'smpp-server/ works through the ports: it imports no store.',
              }
            : STORE_ADAPTERS,
        ],
      },
    ],
  },
}));

// The `smpp` package is the reference the tests hold the project's own codec (smpp-wire/) to; at
// run time every PDU goes through the codec, and the package is a development dependency only.
// (Its own rule name: in a flat config the last block that sets a rule for a file holds, and the
// blocks above set no-restricted-imports.)
const smppPackageInTestsOnly = {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'smpp',
            message: 'At run time SMPP goes through smpp-wire/; the package is for tests.',
          },
        ],
      },
    ],
  },
};

// Small functions in the code that runs: at most 60 lines, comments and blank lines counted, and
// an options object past four parameters (tests and the store contract suites, lists of cases,
// may run longer).
const smallFunctions = {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts', 'src/store/contract/**'],
  rules: {
    'max-lines-per-function': ['error', 60],
    'max-params': ['error', 4],
  },
};

// typescript-eslint's strictTypeChecked set, type-aware over tsconfig.json, on all the TypeScript
// the project runs: a promise nobody awaits, a switch that forgets a case of its union, a cast, a
// condition or a conversion that does nothing, anything typed `any` let through, and the rest of
// the set. A few rules are tuned, each for a reason given beside it.
const TYPED = ['src/**/*.ts', 'test/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts'];
const strictTypeChecked = tseslint.configs.strictTypeChecked.map((c) => ({ ...c, files: TYPED }));
const typeAware = {
  files: TYPED,
  languageOptions: {
    parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
  },
  rules: {
    // node:test's describe/it return promises the runner itself awaits.
    '@typescript-eslint/no-floating-promises': [
      'error',
      {
        allowForKnownSafeCalls: [
          { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
        ],
      },
    ],
    // A `default` counts for the cases it catches.
    '@typescript-eslint/switch-exhaustiveness-check': [
      'error',
      { considerDefaultExhaustiveForUnions: true },
    ],
    // Numbers and booleans print as expected in a message; objects, null and undefined do not.
    '@typescript-eslint/restrict-template-expressions': [
      'error',
      { allowNumber: true, allowBoolean: true },
    ],
    // `(x) => f(x)` where f returns nothing is the callback idiom, not a confused value.
    '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    // The store's ports answer promises; the SQLite adapter does its work synchronously inside
    // async methods, so that a throw reaches the caller as a rejection like PostgreSQL's. An
    // async function without an await is that contract, not an oversight.
    '@typescript-eslint/require-await': 'off',
  },
};

// Tests read what foreign software answers (the UCloud SDK's JSON, a FormData's file) without a
// schema, and exercise a deprecated media field on purpose: these rules hold in src/ only.
const typeAwareTests = {
  files: ['src/**/*.test.ts', 'test/**/*.ts'],
  rules: {
    '@typescript-eslint/no-unsafe-member-access': 'off',
    '@typescript-eslint/no-unsafe-argument': 'off',
    '@typescript-eslint/no-unsafe-call': 'off',
    '@typescript-eslint/no-unsafe-assignment': 'off',
    '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    '@typescript-eslint/no-deprecated': 'off',
  },
};

// A cast turns the type checker off for one value: in the code that runs, each says why it may.
const castsExplained = {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts', 'src/store/contract/**'],
  plugins: { wirebird: { rules: { 'cast-reason': castReason } } },
  rules: { 'wirebird/cast-reason': 'error' },
};

// The console's hand-written browser script.
const consoleScript = {
  files: ['src/console/assets/**/*.js'],
  languageOptions: {
    sourceType: 'script',
    globals: {
      document: 'readonly',
      window: 'readonly',
      URLSearchParams: 'readonly',
      EventSource: 'readonly',
      setTimeout: 'readonly',
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'bench/out/**',
      'packages/*/dist/**',
      // Written by `npm run openapi` (tools/openapi-files.ts); the tests keep them current.
      'packages/client/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  domainPurity,
  sqlOnlyInStore,
  channelsSelfContained,
  storeInward,
  dispatchInward,
  outboxInward,
  ...facesApart,
  smppPackageInTestsOnly,
  smallFunctions,
  ...strictTypeChecked,
  typeAware,
  typeAwareTests,
  castsExplained,
  consoleScript,
);
