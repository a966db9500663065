import { Anchor, Container, Stack, Text, Title } from '@mantine/core'
import { Link } from 'wouter'

/** Any path outside PRODUCT §2. */
export function NotFound() {
  return (
    <Container component="main" id="contenu" py="lg">
      <Stack>
        <Title order={1}>Page introuvable</Title>
        <Text>Cette page n'existe pas.</Text>
        <Anchor component={Link} href="/">
          Retour à l'accueil
        </Anchor>
      </Stack>
    </Container>
  )
}
