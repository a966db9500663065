import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { startScreen } from './screens'
import { loadUser } from './store/session'
import { state } from './store/state'

const root = document.getElementById('root')
if (!root) throw new Error('missing #root element')

// The user load and the screen's code at once, before React's first render.
startScreen(window.location.pathname, state.email !== null, () => void loadUser())

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
