import { Button, Card, Stack, Text, Title } from '@mantine/core'
import { Link } from 'wouter'

/** Shown when the user load failed: no user is recognised (PRODUCT §2 "Dashboard"). */
export function AuthErrorCard({ detail }: { detail?: string | null }) {
  return (
    <Card withBorder shadow="sm" maw={480} mx="auto" my="xl" padding="lg">
      <Stack gap="sm">
        <Title order={2}>Erreur</Title>
        <Title order={3} fw={500}>
          Identifiants de connexion non reconnus
        </Title>
        <Text>
          Une erreur d'authentification s'est produite. Veuillez revenir à la page d'accueil et vous connecter à
          nouveau.
        </Text>
        {detail ? (
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
        ) : null}
        <Button component={Link} href="/landing/login" w="fit-content">
          Accueil
        </Button>
      </Stack>
    </Card>
  )
}
