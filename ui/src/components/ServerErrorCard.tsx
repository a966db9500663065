import { Button, Card, Stack, Text, Title } from '@mantine/core'
import { useEffect, useRef } from 'react'

/** Texts of the card: the server failed, or could not be reached (status 0). */
export const SERVER_ERROR_TEXTS = {
  title: 'Erreur',
  server: 'Erreur du serveur',
  serverText:
    "Le serveur n'a pas pu charger vos informations. Vos identifiants ne sont pas en cause : réessayez dans un instant.",
  unreachable: 'Serveur injoignable',
  unreachableText: 'Le serveur ne répond pas. Vérifiez votre connexion Internet, puis réessayez.',
  retry: 'Réessayer',
} as const

/**
 * Shown when the user load failed for another reason than the credentials
 * (a 5xx, a network failure): it says so and offers to try again. Only a
 * 401 shows the credentials card (AuthErrorCard). The heading takes the
 * focus so that a screen reader hears what happened.
 */
export function ServerErrorCard({
  status,
  detail,
  onRetry,
}: {
  /** The HTTP status of the failure, 0 when the server could not be reached. */
  status: number
  detail?: string | null
  onRetry: () => void
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  const unreachable = status === 0
  return (
    <Card withBorder shadow="sm" maw={480} mx="auto" my="xl" padding="lg" role="alert">
      <Stack gap="sm">
        <Title order={2} ref={heading} tabIndex={-1}>
          {SERVER_ERROR_TEXTS.title}
        </Title>
        <Title order={3} fw={500}>
          {unreachable ? SERVER_ERROR_TEXTS.unreachable : SERVER_ERROR_TEXTS.server}
        </Title>
        <Text>{unreachable ? SERVER_ERROR_TEXTS.unreachableText : SERVER_ERROR_TEXTS.serverText}</Text>
        {detail ? <Text size="sm">{detail}</Text> : null}
        <Button onClick={onRetry} w="fit-content">
          {SERVER_ERROR_TEXTS.retry}
        </Button>
      </Stack>
    </Card>
  )
}
