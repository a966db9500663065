import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// Paths served by the Go daemon (`primeur serve`, default 127.0.0.1:8080).
const daemon = 'http://127.0.0.1:8080'
const proxied = ['/api', '/auth', '/print', '/public', '/openapi.json', '/docs', '/healthz']

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: daemon, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
})
