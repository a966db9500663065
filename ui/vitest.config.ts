import { availableParallelism } from 'node:os'
import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      css: false,
      restoreMocks: true,
      // Form tests type character by character in jsdom; on a busy two-core
      // CI machine that takes seconds, not the 5 s default.
      testTimeout: 30_000,
      // Vitest's default is one worker fewer than the cores, for its main
      // thread: one worker on a two-core CI machine, where the main thread
      // mostly waits. Two there (make test-ui: 271 s with one).
      maxWorkers: Math.max(2, availableParallelism() - 1),
    },
  }),
)
