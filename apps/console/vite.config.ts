import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/tokens': 'http://127.0.0.1:8080', '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true } } },
  build: { outDir: 'dist', chunkSizeWarningLimit: 1500 },
});
