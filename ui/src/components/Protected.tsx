import { type ComponentType, Suspense, lazy, useEffect } from 'react'
import { useLocation } from 'wouter'
import { redirectTarget } from '../routing'
import { loadShell } from '../screens'
import { rememberOrigin } from '../store/session'
import { useIsLoggedIn, useSessionRejected } from '../store/hooks'
import { Loading } from './Loading'

// The shell (user load, bottom navigation) is not needed by the landing page.
const ProtectedShell = lazy(loadShell)

/**
 * Guards a protected route (PRODUCT §2): a logged-out visitor is sent to
 * /landing or /landing/login and the path is remembered; a logged-in one
 * gets the page inside the protected shell.
 */
export function Protected({ page: Page }: { page: ComponentType }) {
  const loggedIn = useIsLoggedIn()
  const rejected = useSessionRejected()
  const [location, navigate] = useLocation()
  const target = redirectTarget(location, loggedIn, rejected)

  useEffect(() => {
    if (!target) return
    rememberOrigin(location)
    navigate(target, { replace: true })
  }, [target, location, navigate])

  if (target) return null
  return (
    <Suspense fallback={<Loading />}>
      <ProtectedShell>
        <Page />
      </ProtectedShell>
    </Suspense>
  )
}
