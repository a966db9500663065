import { Anchor, Group, Text } from '@mantine/core'
import { Suspense, lazy } from 'react'
import { Link } from 'wouter'
import { useEmail } from '../store/hooks'

// Loaded once logged in: the landing page's weight does not carry it (e2e/budget.spec.ts).
const AccountMenu = lazy(() => import('./AccountMenu').then((m) => ({ default: m.AccountMenu })))

/**
 * Top bar: the brand and who is logged in, or "non connecté" (PRODUCT §2);
 * logged in, the account menu (profile, settings, "Quitter") on every screen.
 */
export function AppHeader() {
  const email = useEmail()
  return (
    <Group component="header" data-brand-bar justify="space-between" px="md" h={56} bg="green.7" c="white">
      <Anchor component={Link} href="/" c="white" fw={700} fz="xl" underline="never">
        Primeur
      </Anchor>
      <Group gap="sm" wrap="nowrap">
        {/* The email where it fits; on a phone, at the top of the account menu. */}
        <Text size="sm" data-testid="session-status" visibleFrom={email ? 'sm' : undefined}>
          {email ?? 'non connecté'}
        </Text>
        {email ? (
          <Suspense fallback={null}>
            <AccountMenu email={email} />
          </Suspense>
        ) : null}
      </Group>
    </Group>
  )
}
