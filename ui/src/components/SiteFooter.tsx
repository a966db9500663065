import { Anchor, Group } from '@mantine/core'
import { Link } from 'wouter'
import { ROUTES } from '../routing'
import { useUserType } from '../store/hooks'

/**
 * The footer of every page (RGAA: the conformity status on every page,
 * linking to the statement): "Accessibilité : partiellement conforme" and
 * "À propos". Logged in, it stays above the fixed bottom navigation.
 */
export function SiteFooter() {
  const type = useUserType()
  return (
    <Group component="footer" aria-label="Pied de page" justify="center" gap="lg" pt="md" pb={type ? 88 : 'md'}>
      <Anchor component={Link} href={ROUTES.accessibility} size="sm">
        Accessibilité : partiellement conforme
      </Anchor>
      <Anchor component={Link} href={ROUTES.about} size="sm">
        À propos
      </Anchor>
    </Group>
  )
}
