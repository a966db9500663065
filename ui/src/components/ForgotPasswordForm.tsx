import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { ApiError, errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { requestPasswordReset } from '../store/session'
import { type ForgotField, type ForgotValues, RESET_TEXTS, validateForgot } from '../validation/passwordReset'

/**
 * "Mot de passe oublié" (PRODUCT §13): the email of the account; the
 * daemon's one answer, whatever the email, replaces the form.
 */
export function ForgotPasswordForm() {
  const form = useFormState<ForgotValues, ForgotField>({ email: '' }, validateForgot)
  const submission = useSubmit()
  const [sent, setSent] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        setSent(await requestPasswordReset(form.values.email.trim()))
      } catch (err) {
        if (err instanceof ApiError) form.setServerErrors(err.fieldErrors())
        return errorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
      <Stack gap="sm">
        <Title order={2} id="forgot-title">
          {RESET_TEXTS.forgotTitle}
        </Title>
        {sent ? (
          <Alert color="green" role="status">
            {sent}
          </Alert>
        ) : (
          <>
            <Text size="sm">{RESET_TEXTS.forgotIntro}</Text>
            <TextInput
              label="Adresse email"
              type="email"
              autoComplete="email"
              value={form.values.email}
              onChange={(e) => form.setValue('email', e.currentTarget.value)}
              onBlur={() => form.touch('email')}
              error={form.errorOf('email')}
            />
            <SubmitFailure message={submission.failure} />
            <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
              {submission.label(RESET_TEXTS.forgotSubmit)}
            </Button>
          </>
        )}
        <Text size="sm">
          <Anchor component={Link} href="/landing/login">
            {RESET_TEXTS.backToLogin}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
