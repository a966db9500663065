import { Box } from '@mantine/core'
import { type ReactNode, Suspense, useEffect } from 'react'
import { useIsLoaded, useLoadError, useLoading, useUnconfirmedEmail, useUserType } from '../store/hooks'
import { loadUser } from '../store/session'
import { state } from '../store/state'
import { AuthErrorCard } from './AuthErrorCard'
import { BottomNav } from './BottomNav'
import { EmailConfirmBanner } from './EmailConfirmBanner'
import { Loading } from './Loading'
import { ServerErrorCard } from './ServerErrorCard'

/**
 * Frame of every protected screen: loads the user once per session, shows
 * the spinner while the user type is unknown, an error card when the load
 * failed — the credentials card for a 401 (PRODUCT §2), the server-error
 * card with "Réessayer" for anything else —, then the page above the bottom
 * navigation, under the banner asking to confirm the login email while it
 * is not.
 */
export function ProtectedShell({ children }: { children: ReactNode }) {
  const type = useUserType()
  const loaded = useIsLoaded()
  const status = useLoading('user')
  const loadError = useLoadError()
  const unconfirmed = useUnconfirmedEmail()

  useEffect(() => {
    if (!loaded && status === 'idle') void loadUser()
  }, [loaded, status])
  // A shop's receptions waiting on this phone leave at the app's start,
  // whatever the screen (src/reception/atStart.ts, a chunk of its own).
  useEffect(() => {
    const email = state.email
    if (type !== 'distributor' || !email) return
    void import('../reception/atStart')
      .then((m) => m.sendWaitingAtStart(email))
      .catch((err) => console.error('receptions:', err))
  }, [type])

  if (!type) {
    if (status !== 'error' || !loadError) return <Loading />
    if (loadError.status === 401) return <AuthErrorCard detail={loadError.message} />
    return <ServerErrorCard status={loadError.status} detail={loadError.message} onRetry={() => void loadUser()} />
  }
  return (
    <>
      {unconfirmed ? <EmailConfirmBanner email={unconfirmed} /> : null}
      <Box component="main" id="contenu" pb={72}>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </Box>
      <BottomNav />
    </>
  )
}
