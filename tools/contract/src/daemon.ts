// Starts the built binary's daemon on a fresh SQLite data directory and a
// port the system chooses, and stops it.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/** A running daemon. */
export interface Daemon {
  /** Its address, "http://127.0.0.1:41234". */
  url: string
  /** Stops it (SIGTERM: requests in flight finish) and removes its data. */
  stop(): Promise<void>
}

/**
 * Starts `bin serve` with its clock at `now`. The daemon prints its address
 * once it listens ("… à l'écoute sur http://127.0.0.1:41234"): the test then
 * starts, without polling. Its environment keeps no PRIMEUR_* variable of
 * the caller's, so that a PRIMEUR_DATABASE_URL cannot send it elsewhere.
 */
export async function start(bin: string, now: string): Promise<Daemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'primeur-contract-'))
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('PRIMEUR_')) env[k] = v
  }
  env.PRIMEUR_LOG_LEVEL = 'warn'
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir, '--now', now], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stop = async (): Promise<void> => {
    await exited(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const url = await new Promise<string | undefined>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve(undefined))
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const m = /à l'écoute sur (http:\/\/\S+)/.exec(line)
      if (m?.[1]) resolve(m[1])
    })
  }).catch(async (err: unknown) => {
    await stop()
    throw err
  })
  if (!url) {
    await stop()
    throw new Error(`${bin} serve ended before listening (exit ${String(child.exitCode)})`)
  }
  return { url, stop }
}

/** Ends the process with SIGTERM and waits for it. */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  return done
}
