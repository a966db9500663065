import { Alert, Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { useState } from 'react'
import { Link } from 'wouter'
import { SubmitFailure } from '../forms/SubmitFailure'
import { fieldProps, useSendForm } from '../forms/useSendForm'
import { resetPassword } from '../store/session'
import { RESET_TEXTS, type ResetField, type ResetValues, validateReset } from '../validation/passwordReset'

/**
 * The new password of a reset link (PRODUCT §13), read from the link's
 * fragment: the password twice, then the daemon's answer and a way to log in.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState<string | null>(null)
  const { form, submission, onSubmit } = useSendForm<ResetValues, ResetField>(
    { password: '', password2: '' },
    validateReset,
    async (v) => setDone(await resetPassword(token, v.password, v.password2)),
  )

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
              {...fieldProps(form, 'password')}
            />
            <PasswordInput
              label={RESET_TEXTS.newPassword2}
              autoComplete="new-password"
              {...fieldProps(form, 'password2')}
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
