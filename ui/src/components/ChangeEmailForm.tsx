import { Alert, Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { ApiError, errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { changeEmail } from '../store/email'
import {
  EMAIL_CHANGE_TEXTS,
  type EmailChangeField,
  type EmailChangeValues,
  validateEmailChange,
} from '../validation/emailChange'

const EMPTY: EmailChangeValues = { email: '', current: '' }

/**
 * The change of the login email in the profile (PRODUCT §13 "Confirming an
 * email"): the new address and the current password; the daemon emails a
 * link to the new address, which replaces the old one once opened. The
 * address waiting for its link shows under the form.
 */
export function ChangeEmailForm({ email, pending }: { email: string; pending?: string }) {
  const [key, setKey] = useState(0)
  const [done, setDone] = useState<string | null>(null)
  return (
    <ChangeEmailFields
      key={key}
      email={email}
      pending={pending}
      done={done}
      onDone={(message) => {
        setDone(message)
        setKey((k) => k + 1)
      }}
    />
  )
}

function ChangeEmailFields({
  email,
  pending,
  done,
  onDone,
}: {
  email: string
  pending?: string
  done: string | null
  onDone: (message: string) => void
}) {
  const form = useFormState<EmailChangeValues, EmailChangeField>(EMPTY, validateEmailChange)
  const submission = useSubmit()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        onDone(await changeEmail(form.values.current, form.values.email.trim()))
      } catch (err) {
        if (err instanceof ApiError) form.setServerErrors(err.fieldErrors())
        return errorMessage(err)
      }
    })
  }

  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="email-change-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="email-change-title">
          {EMAIL_CHANGE_TEXTS.title}
        </Title>
        <Text size="sm">{EMAIL_CHANGE_TEXTS.current(email)}</Text>
        <Text size="sm" c="dimmed">
          {EMAIL_CHANGE_TEXTS.intro}
        </Text>
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : null}
        {pending ? (
          <Text size="sm" fw={600}>
            {EMAIL_CHANGE_TEXTS.pending(pending)}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={EMAIL_CHANGE_TEXTS.email}
            type="email"
            autoComplete="email"
            value={form.values.email}
            onChange={(e) => form.setValue('email', e.currentTarget.value)}
            onBlur={() => form.touch('email')}
            error={form.errorOf('email')}
          />
          <PasswordInput
            label={EMAIL_CHANGE_TEXTS.password}
            autoComplete="current-password"
            value={form.values.current}
            onChange={(e) => form.setValue('current', e.currentTarget.value)}
            onBlur={() => form.touch('current')}
            error={form.errorOf('current')}
          />
        </SimpleGrid>
        <SubmitFailure message={submission.failure} />
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label(EMAIL_CHANGE_TEXTS.submit)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
