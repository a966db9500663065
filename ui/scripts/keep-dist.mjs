// Re-creates dist/.gitkeep after `vite build` empties dist/.
// Go's `//go:embed all:ui/dist` needs the directory to exist in a fresh checkout,
// so the placeholder file is committed and must survive every build.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

writeFileSync(fileURLToPath(new URL('../dist/.gitkeep', import.meta.url)), '')
