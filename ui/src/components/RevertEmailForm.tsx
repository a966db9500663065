import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { revertEmail } from '../store/email'

export const REVERT_TEXTS = {
  title: 'Rétablir votre adresse de connexion',
  question: "L'adresse de connexion de votre compte a été remplacée. Ce n'était pas vous ?",
  hint: 'Votre adresse sera rétablie, toutes les sessions du compte fermées et son mot de passe désactivé : vous recevrez à cette adresse un lien pour en choisir un nouveau.',
  submit: 'Rétablir mon adresse',
  missingToken: "Ce lien est incomplet : ouvrez celui de l'email tel quel.",
  home: "Aller à l'accueil",
} as const

/**
 * The page of the way back of a login email change (PRODUCT §13 "Changing
 * the login email", /landing/revert#token), without login: it asks first —
 * link scanners open links, and opening must not undo a change —, then
 * sends the token and shows the daemon's sentence.
 */
export function RevertEmailForm({ token }: { token: string }) {
  const submission = useSubmit()
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    await submission.run(async () => {
      try {
        setDone(await revertEmail(token))
      } catch (err) {
        return errorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="revert-title">
      <Stack gap="sm">
        <Title order={2} id="revert-title">
          {REVERT_TEXTS.title}
        </Title>
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : !token ? (
          <Alert color="yellow" role="status">
            {REVERT_TEXTS.missingToken}
          </Alert>
        ) : (
          <>
            <Text>{REVERT_TEXTS.question}</Text>
            <Text size="sm" c="dimmed">
              {REVERT_TEXTS.hint}
            </Text>
            <SubmitFailure message={submission.failure} />
            <Button type="submit" color="red" disabled={submission.submitting}>
              {submission.label(REVERT_TEXTS.submit)}
            </Button>
          </>
        )}
        <Text size="sm">
          <Anchor component={Link} href="/">
            {REVERT_TEXTS.home}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
