// ESLint (flat config). Its job here is the layer map of ARCHITECTURE.md: imports run one way only, and
// no module imports itself back through a cycle. Formatting is Prettier's (`npm run format`), not ESLint's.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/**
 * Each layer and the layers it may import (besides itself). A folder is matched with everything under it,
 * so new folders inside a layer (shared/assets/**, electron/formats/wad, electron/cli/commands/...) are
 * covered without being listed. Any other folder of `electron/` or `renderer/` is out of bounds for it.
 * The CLI is the outermost shell: `modpak serve` and `modpak studio` start the other two.
 * electron/demo generates installs (the demo, test fixtures, bench corpora) with the format writers; it
 * sits beside the VFS, and only services (the demo install) and the shells use it.
 */
export const LAYERS = {
  shared: [],
  'electron/io': ['shared'],
  'electron/formats': ['shared', 'electron/io'],
  'electron/tdf': ['shared', 'electron/io', 'electron/formats'],
  'electron/vfs': ['shared', 'electron/io', 'electron/formats', 'electron/tdf'],
  'electron/demo': ['shared', 'electron/io', 'electron/formats'],
  'electron/mods': ['shared', 'electron/io', 'electron/formats', 'electron/tdf', 'electron/vfs'],
  'electron/services': ['shared', 'electron/io', 'electron/formats', 'electron/tdf', 'electron/vfs', 'electron/demo', 'electron/mods'],
  'electron/web': [
    'shared',
    'electron/io',
    'electron/formats',
    'electron/tdf',
    'electron/vfs',
    'electron/demo',
    'electron/mods',
    'electron/services',
  ],
  'electron/main': [
    'shared',
    'electron/io',
    'electron/formats',
    'electron/tdf',
    'electron/vfs',
    'electron/demo',
    'electron/mods',
    'electron/services',
  ],
  'electron/preload': ['shared', 'electron/services'],
  // `modpak mcp`: the services as Model Context Protocol tools, a shell like web.
  'electron/mcp': [
    'shared',
    'electron/io',
    'electron/formats',
    'electron/tdf',
    'electron/vfs',
    'electron/demo',
    'electron/mods',
    'electron/services',
  ],
  'electron/cli': [
    'shared',
    'electron/io',
    'electron/formats',
    'electron/tdf',
    'electron/vfs',
    'electron/demo',
    'electron/mods',
    'electron/services',
    'electron/web',
    'electron/main',
    'electron/mcp',
  ],
  renderer: ['shared'],
};

/** The roots a layer can reach out of: everything in the app except what it may import. */
const APP_ROOTS = ['shared', 'electron', 'renderer'];

function zonesFor(layer, allowed) {
  const zones = [];
  for (const root of APP_ROOTS) {
    const inside = [layer, ...allowed].filter((dir) => dir === root || dir.startsWith(`${root}/`));
    if (inside.includes(root)) continue; // the whole root is allowed
    zones.push({
      target: `./${layer}`,
      from: `./${root}`,
      except: inside.map((dir) => `./${dir.slice(root.length + 1)}`),
      message: `${layer} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (see ARCHITECTURE.md).`,
    });
  }
  return zones;
}

const layerZones = Object.entries(LAYERS).flatMap(([layer, allowed]) => zonesFor(layer, allowed));

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noNodeInPureCode = {
  'no-restricted-imports': [
    'error',
    {
      paths: nodeBuiltins.map((name) => ({ name, message: 'pure code (shared/, renderer/) runs in the browser too: no Node builtins.' })),
      patterns: [{ group: ['node:*'], message: 'pure code (shared/, renderer/) runs in the browser too: no Node builtins.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.bench/', 'test-results/', 'playwright-report/', 'bin/cli-bundle.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      // no-cycle parses what a module imports; SFCs are left out of that walk (their imports still obey the zones).
      'import-x/ignore': ['\\.vue$'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'renderer/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Types are strict by tsc; these two are noise over what it already checks.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.vue'],
    languageOptions: {
      parser: vueParser,
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...noNodeInPureCode },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: { ...noNodeInPureCode },
  },
  {
    // The few CommonJS files (the bench's preloaded usage hook) load with require, as CommonJS does.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
