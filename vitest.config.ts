import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// Unit, integration and component tests. Browser end-to-end tests are Playwright's (tests/e2e).
export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/renderer/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests that start bin/modpak run the CLI bundle: made fresh from the sources once per run.
    globalSetup: ['./tests/global-setup.ts'],
  },
});
