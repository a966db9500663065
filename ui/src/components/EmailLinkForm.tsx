import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'

/** The texts of an email link's page. */
export interface EmailLinkTexts {
  title: string
  question: string
  hint: string
  submit: string
  missingToken: string
  home: string
}

/**
 * The page of a link sent by email that acts on the account without login
 * (an unsubscribe, the way back of a login email change): it asks first —
 * link scanners open links, and opening must not act —, then sends the
 * token and shows the daemon's sentence.
 */
export function EmailLinkForm({
  id,
  token,
  texts,
  send,
  color,
}: {
  id: string
  token: string
  texts: EmailLinkTexts
  send: (token: string) => Promise<string>
  color?: string
}) {
  const submission = useSubmit()
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    await submission.run(async () => {
      try {
        setDone(await send(token))
      } catch (err) {
        return errorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <Stack gap="sm">
        <Title order={2} id={`${id}-title`}>
          {texts.title}
        </Title>
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : !token ? (
          <Alert color="yellow" role="status">
            {texts.missingToken}
          </Alert>
        ) : (
          <>
            <Text>{texts.question}</Text>
            <Text size="sm" c="dimmed">
              {texts.hint}
            </Text>
            <SubmitFailure message={submission.failure} />
            <Button type="submit" color={color} disabled={submission.submitting}>
              {submission.label(texts.submit)}
            </Button>
          </>
        )}
        <Text size="sm">
          <Anchor component={Link} href="/">
            {texts.home}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
