// Starts the Go daemon for the browser tests and stops it afterwards.
//
// - Binary: ../bin/primeur (built by `make build` at the repository root, which
//   embeds the current ui/dist), or $PRIMEUR_BIN.
// - A fresh data directory (SQLite database, outbox) per run, exported as
//   PRIMEUR_E2E_DATA_DIR so tests can run CLI jobs on it; removed at the end
//   unless PRIMEUR_E2E_KEEP_DATA is set; the seeder of tools/e2eseed is built
//   into it (see fixtures' seed).
// - The base URL is exported as PRIMEUR_E2E_BASE_URL. When that variable is
//   already set, the daemon it points to is used and nothing is started.
import type { FullConfig } from '@playwright/test'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const STARTUP_TIMEOUT_MS = 30_000

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer()
    server.unref()
    server.on('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))))
    })
  })
}

/** Polls GET /healthz until it answers 200, the process exits, or the timeout passes. */
export async function waitHealthy(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`primeur serve exited early with code ${child.exitCode}`)
    try {
      const response = await fetch(`${baseUrl}/healthz`)
      if (response.status === 200) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`primeur serve did not answer ${baseUrl}/healthz within ${STARTUP_TIMEOUT_MS} ms`)
}

/** Stops the daemon: SIGTERM, then SIGKILL after 5 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | void> {
  if (process.env.PRIMEUR_E2E_BASE_URL) return

  const uiDir = config.configFile ? dirname(config.configFile) : process.cwd()
  const bin = resolve(process.env.PRIMEUR_BIN ?? join(uiDir, '..', 'bin', 'primeur'))
  if (!existsSync(bin)) {
    throw new Error(`${bin} not found: run "make build" at the repository root first (or set PRIMEUR_BIN)`)
  }

  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'primeur-e2e-'))
  // The scenes' seeder (fixtures' seed), built once with the Go toolchain.
  execFileSync('go', ['build', '-o', join(dataDir, 'e2eseed'), './tools/e2eseed'], {
    cwd: join(uiDir, '..'),
    stdio: 'inherit',
  })
  const baseUrl = `http://127.0.0.1:${port}`
  // Every test registers its accounts from 127.0.0.1: the suite needs more
  // registrations from that address than a visitor gets (10 an hour).
  const child = spawn(
    bin,
    ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--registrations-per-hour', '1000'],
    {
      env: { ...process.env, PRIMEUR_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  )
  try {
    await waitHealthy(baseUrl, child)
  } catch (err) {
    await stop(child)
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  }

  process.env.PRIMEUR_E2E_BASE_URL = baseUrl
  process.env.PRIMEUR_E2E_DATA_DIR = dataDir

  return async () => {
    await stop(child)
    if (!process.env.PRIMEUR_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true })
  }
}
