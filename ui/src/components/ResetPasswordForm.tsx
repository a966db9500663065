import { Alert, Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { ApiError, errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { resetPassword } from '../store/session'
import { RESET_TEXTS, type ResetField, type ResetValues, validateReset } from '../validation/passwordReset'

/**
 * The new password of a reset link (PRODUCT §13), read from the link's
 * fragment: the password twice, then the daemon's answer and a way to log in.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const form = useFormState<ResetValues, ResetField>({ password: '', password2: '' }, validateReset)
  const submission = useSubmit()
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        setDone(await resetPassword(token, form.values.password, form.values.password2))
      } catch (err) {
        if (err instanceof ApiError) form.setServerErrors(err.fieldErrors())
        return errorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
      <Stack gap="sm">
        <Title order={2} id="reset-title">
          {RESET_TEXTS.resetTitle}
        </Title>
        {done ? (
          <>
            <Alert color="green" role="status">
              {done}
            </Alert>
            <Button component={Link} href="/landing/login">
              Se connecter
            </Button>
          </>
        ) : !token ? (
          <Alert color="yellow" role="status">
            {RESET_TEXTS.missingToken}
          </Alert>
        ) : (
          <>
            <PasswordInput
              label={RESET_TEXTS.newPassword}
              autoComplete="new-password"
              value={form.values.password}
              onChange={(e) => form.setValue('password', e.currentTarget.value)}
              onBlur={() => form.touch('password')}
              error={form.errorOf('password')}
            />
            <PasswordInput
              label={RESET_TEXTS.newPassword2}
              autoComplete="new-password"
              value={form.values.password2}
              onChange={(e) => form.setValue('password2', e.currentTarget.value)}
              onBlur={() => form.touch('password2')}
              error={form.errorOf('password2')}
            />
            <SubmitFailure message={submission.failure} />
            <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
              {submission.label(RESET_TEXTS.resetSubmit)}
            </Button>
          </>
        )}
        {done ? null : (
          <Text size="sm">
            <Anchor component={Link} href="/landing/forgot">
              {RESET_TEXTS.newLink}
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  )
}
