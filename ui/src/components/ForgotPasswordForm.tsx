import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core'
import { useState } from 'react'
import { Link } from 'wouter'
import { SubmitFailure } from '../forms/SubmitFailure'
import { fieldProps, useSendForm } from '../forms/useSendForm'
import { requestPasswordReset } from '../store/session'
import { type ForgotField, type ForgotValues, RESET_TEXTS, validateForgot } from '../validation/passwordReset'

/**
 * "Mot de passe oublié" (PRODUCT §13): the email of the account; the
 * daemon's one answer, whatever the email, replaces the form.
 */
export function ForgotPasswordForm() {
  const [sent, setSent] = useState<string | null>(null)
  const { form, submission, onSubmit } = useSendForm<ForgotValues, ForgotField>(
    { email: '' },
    validateForgot,
    async (v) => setSent(await requestPasswordReset(v.email.trim())),
  )

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
            <TextInput label="Adresse email" type="email" autoComplete="email" {...fieldProps(form, 'email')} />
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
