import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

/**
 * The renderer build: renderer/index.html → out/renderer. The same files are served by the Electron main
 * process (custom modpak:// protocol) and by `modpak serve` (HTTP), so asset URLs are relative (base './')
 * and the page must not rely on server-side routes: switch screens inside the app.
 * No inline scripts: both hosts send a Content-Security-Policy with script-src 'self'.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [vue()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One module graph for a desktop app: no need for a warning about chunk size.
    chunkSizeWarningLimit: 2000,
    // The bundler's plugin-timing report is noise on a shared 2-core machine.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: { host: '127.0.0.1', strictPort: false },
});
