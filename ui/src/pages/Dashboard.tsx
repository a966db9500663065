import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useLocation } from 'wouter'
import { ProfileForm } from '../components/ProfileForm'
import { useUser } from '../store/hooks'
import { logout } from '../store/session'

/**
 * Home of both roles (SPEC §2 "Dashboard"): the map, statistics and rewards
 * area (built by a later issue), then a footer with the profile toggle and
 * the quit button.
 */
export function Dashboard() {
  const user = useUser()
  const [, navigate] = useLocation()
  const [profileOpen, profile] = useDisclosure(false)
  if (!user) return null

  const quit = async () => {
    await logout()
    navigate('/')
  }

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={1}>{user.name || 'Tableau de bord'}</Title>
          <Text c="dimmed">{user.type === 'producer' ? 'Espace producteur' : 'Espace magasin'}</Text>
        </Stack>
        {/* TO BE BUILT: map of shops and producers, statistics chart, shop panel and rewards (SPEC §2). */}
        <Alert color="gray" title="Carte et statistiques" data-testid="dashboard-placeholder">
          La carte des magasins et des producteurs, les statistiques et le programme ambassadeur arrivent dans une
          prochaine étape.
        </Alert>
        {profileOpen ? <ProfileForm key={user.updatedAt} user={user} onClose={profile.close} /> : null}
        <Group component="footer" justify="space-between" aria-label="Compte">
          <Button variant="light" onClick={profile.toggle} aria-expanded={profileOpen}>
            {user.email}
          </Button>
          <Button variant="subtle" color="red" onClick={quit}>
            Quitter
          </Button>
        </Group>
      </Stack>
    </Container>
  )
}
