import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import type { FormEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { useFormState } from '../forms/useFormState'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { loginNotice } from '../routing'
import { useOrigin } from '../store/hooks'
import { consumeOrigin, login, loginErrorMessage } from '../store/session'
import { type LoginField, type LoginValues, validateLogin } from '../validation/login'
import { RESET_TEXTS } from '../validation/passwordReset'

const EMPTY: LoginValues = { email: '', password: '' }

/** Login form (PRODUCT §2, §5, §8); returns to the remembered origin on success. */
export function LoginForm() {
  const [, navigate] = useLocation()
  const origin = useOrigin()
  const notice = loginNotice(origin)
  const form = useFormState<LoginValues, LoginField>(EMPTY, validateLogin)
  const submission = useSubmit()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        await login(form.values.email.trim(), form.values.password)
        navigate(consumeOrigin())
      } catch (err) {
        return loginErrorMessage(err)
      }
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <Stack gap="sm">
        <Title order={2} id="login-title">
          Connexion
        </Title>
        {notice ? (
          <Alert color="yellow" role="status">
            {notice}
          </Alert>
        ) : null}
        <TextInput
          label="Adresse email"
          type="email"
          autoComplete="email"
          value={form.values.email}
          onChange={(e) => form.setValue('email', e.currentTarget.value)}
          onBlur={() => form.touch('email')}
          error={form.errorOf('email')}
        />
        <PasswordInput
          label="Mot de passe"
          autoComplete="current-password"
          value={form.values.password}
          onChange={(e) => form.setValue('password', e.currentTarget.value)}
          onBlur={() => form.touch('password')}
          error={form.errorOf('password')}
        />
        <SubmitFailure message={submission.failure} />
        <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
          {submission.label('Se connecter')}
        </Button>
        <Text size="sm">
          <Anchor component={Link} href="/landing/forgot">
            {RESET_TEXTS.forgotLink}
          </Anchor>
        </Text>
        <Text size="sm">
          <Anchor component={Link} href="/landing/register">
            Pas encore de compte ?
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
