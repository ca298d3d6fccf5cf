import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
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
