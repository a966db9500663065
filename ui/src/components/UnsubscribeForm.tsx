import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { unsubscribe } from '../store/email'

export const UNSUBSCRIBE_TEXTS = {
  title: 'Notifications par email',
  question: 'Ne plus recevoir ces notifications par email ?',
  hint: 'Vous pourrez les réactiver à tout moment dans votre profil.',
  submit: 'Me désabonner',
  missingToken: "Ce lien est incomplet : ouvrez celui de l'email tel quel.",
  home: "Aller à l'accueil",
} as const

/**
 * The page of an email's unsubscribe link (PRODUCT §13 "Notifications",
 * /landing/unsubscribe#token), without login: it asks first — link
 * scanners open links, and opening must not unsubscribe —, then sends the
 * token and shows the daemon's sentence.
 */
export function UnsubscribeForm({ token }: { token: string }) {
  const submission = useSubmit()
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    await submission.run(async () => {
      try {
        setDone(await unsubscribe(token))
      } catch (err) {
        return errorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="unsubscribe-title">
      <Stack gap="sm">
        <Title order={2} id="unsubscribe-title">
          {UNSUBSCRIBE_TEXTS.title}
        </Title>
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : !token ? (
          <Alert color="yellow" role="status">
            {UNSUBSCRIBE_TEXTS.missingToken}
          </Alert>
        ) : (
          <>
            <Text>{UNSUBSCRIBE_TEXTS.question}</Text>
            <Text size="sm" c="dimmed">
              {UNSUBSCRIBE_TEXTS.hint}
            </Text>
            <SubmitFailure message={submission.failure} />
            <Button type="submit" disabled={submission.submitting}>
              {submission.label(UNSUBSCRIBE_TEXTS.submit)}
            </Button>
          </>
        )}
        <Text size="sm">
          <Anchor component={Link} href="/">
            {UNSUBSCRIBE_TEXTS.home}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
