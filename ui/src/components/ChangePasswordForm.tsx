import { Alert, Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { ApiError, errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { changePassword } from '../store/session'
import {
  CHANGE_TEXTS,
  type ChangeField,
  type ChangeValues,
  RESET_TEXTS,
  validateChange,
} from '../validation/passwordReset'

const EMPTY: ChangeValues = { current: '', password: '', password2: '' }

/**
 * The password change of the profile (PRODUCT §13 "Password change"): the
 * current password, then the new one twice; the other sessions end.
 */
export function ChangePasswordForm() {
  const [key, setKey] = useState(0)
  const [done, setDone] = useState<string | null>(null)
  return (
    <ChangePasswordFields
      key={key}
      done={done}
      onDone={(message) => {
        setDone(message)
        setKey((k) => k + 1)
      }}
    />
  )
}

function ChangePasswordFields({ done, onDone }: { done: string | null; onDone: (message: string) => void }) {
  const form = useFormState<ChangeValues, ChangeField>(EMPTY, validateChange)
  const submission = useSubmit()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        onDone(await changePassword(form.values.current, form.values.password, form.values.password2))
      } catch (err) {
        if (err instanceof ApiError) form.setServerErrors(err.fieldErrors())
        return errorMessage(err)
      }
    })
  }

  const field = (name: ChangeField, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      value={form.values[name]}
      onChange={(e) => form.setValue(name, e.currentTarget.value)}
      onBlur={() => form.touch(name)}
      error={form.errorOf(name)}
    />
  )

  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="password-title">
          {CHANGE_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          Vos autres sessions (autres navigateurs, autres appareils) seront fermées.
        </Text>
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {field('current', CHANGE_TEXTS.current, 'current-password')}
          {field('password', RESET_TEXTS.newPassword, 'new-password')}
          {field('password2', RESET_TEXTS.newPassword2, 'new-password')}
        </SimpleGrid>
        <SubmitFailure message={submission.failure} />
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label(CHANGE_TEXTS.submit)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
