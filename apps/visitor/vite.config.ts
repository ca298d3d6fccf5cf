import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// @kefu/protocol's modules only declare things: lets the bundler drop zod and the unused catalogue.
const treeshake = { moduleSideEffects: (id: string) => !id.includes('/packages/protocol/src/') };

/** After the chat app, build the embed loader as one classic script: dist/loader.js (served at /im/loader.js). */
function loaderBuild(): Plugin {
  return {
    name: 'kefu-loader',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir: here('./dist'),
          emptyOutDir: false,
          copyPublicDir: false,
          lib: {
            entry: here('./src/loader/loader.ts'),
            formats: ['iife'],
            name: 'kefuLoader',
            fileName: () => 'loader.js',
          },
          rolldownOptions: { treeshake },
        },
      });
      execFileSync(process.execPath, [here('./scripts/sizes.mjs')], { stdio: 'inherit' });
    },
  };
}

/** The visitor pages (one HTML entry, served under /im/, routed by /visitor/<page>) and the loader. */
export default defineConfig({
  base: '/im/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [loaderBuild()],
  server: {
    proxy: {
      '/im/user': 'http://127.0.0.1:8080',
      '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    target: 'es2020',
    rolldownOptions: { treeshake },
  },
});
