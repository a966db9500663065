import { Anchor, Group, Text } from '@mantine/core'
import { Link } from 'wouter'
import { useEmail } from '../store/hooks'

/** Top bar: the brand and who is logged in, or "non connecté" (PRODUCT §2). */
export function AppHeader() {
  const email = useEmail()
  return (
    <Group component="header" data-brand-bar justify="space-between" px="md" h={56} bg="green.7" c="white">
      <Anchor component={Link} href="/" c="white" fw={700} fz="xl" underline="never">
        Primeur
      </Anchor>
      <Text size="sm" data-testid="session-status">
        {email ?? 'non connecté'}
      </Text>
    </Group>
  )
}
