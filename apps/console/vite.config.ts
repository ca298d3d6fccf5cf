import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const require = createRequire(import.meta.url);
// echarts-for-react's ESM build imports tslib without declaring it; use the copy echarts itself depends on.
const tslib = join(
  dirname(require.resolve('tslib', { paths: [dirname(require.resolve('echarts/package.json'))] })),
  'tslib.es6.js',
);

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { tslib } },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/tokens': 'http://127.0.0.1:8080',
      '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // @kefu/protocol's modules only declare things; saying so lets the bundler drop the zod
        // schemas (and zod) the console does not use, instead of shipping them on first load.
        moduleSideEffects: (id: string) => !id.includes('/packages/protocol/src/'),
      },
    },
  },
});
