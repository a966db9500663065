import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { errorMessage } from '../api'
import { confirmEmail } from '../store/email'

export const CONFIRM_TEXTS = {
  title: "Confirmation de l'adresse email",
  running: 'Confirmation en cours…',
  missingToken:
    "Ce lien est incomplet : ouvrez celui de l'email tel quel, ou demandez-en un nouveau depuis votre espace Primeur.",
  home: "Aller à l'accueil",
} as const

type Outcome = { ok: boolean; message: string }

/**
 * The page of a confirmation link (PRODUCT §13 "Confirming an email",
 * /landing/confirm#token): the token is sent once, as the page opens, and
 * the daemon's sentence shown — green when the address is confirmed, red
 * with why when the link is dead. A logged-in user is loaded again, so the
 * banner asking for the confirmation goes.
 */
export function ConfirmEmail({ token }: { token: string }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // One request per page, even when effects run twice (React's strict mode):
  // a link serves once.
  const sent = useRef(false)

  useEffect(() => {
    if (!token || sent.current) return
    sent.current = true
    confirmEmail(token).then(
      (message) => setOutcome({ ok: true, message }),
      (err: unknown) => setOutcome({ ok: false, message: errorMessage(err) }),
    )
  }, [token])

  return (
    <Stack gap="sm">
      <Title order={2}>{CONFIRM_TEXTS.title}</Title>
      {!token ? (
        <Alert color="yellow" role="status">
          {CONFIRM_TEXTS.missingToken}
        </Alert>
      ) : !outcome ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{CONFIRM_TEXTS.running}</Text>
        </Group>
      ) : (
        <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </Alert>
      )}
      <Text size="sm">
        <Anchor component={Link} href="/">
          {CONFIRM_TEXTS.home}
        </Anchor>
      </Text>
    </Stack>
  )
}
