import { Container, Title } from '@mantine/core'

/** Public page with only a heading (PRODUCT §2). */
export function About() {
  return (
    <Container component="main" id="contenu" py="lg">
      <Title order={1}>About</Title>
    </Container>
  )
}
