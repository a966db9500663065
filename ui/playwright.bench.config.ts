import { defineConfig } from '@playwright/test'
import base from './playwright.config'

// The browser benchmarks of `make bench` (e2e/*.bench.ts): the browser of the
// tests (Debian's Chromium), one at a time, each starting its own daemon
// (e2e/demo.ts), so without the tests' global setup.
export default defineConfig({
  ...base,
  testMatch: /.*\.bench\.ts$/,
  globalSetup: undefined,
  retries: 0,
  reporter: [['list']],
  use: { ...base.use, trace: 'off', screenshot: 'off' },
})
