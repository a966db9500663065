import { Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import type { ChangeEvent, FormEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { ApiError } from '../api'
import { useFormState } from '../forms/useFormState'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { consumeOrigin, register, SESSION_MESSAGES } from '../store/session'
import { type RegistrationField, type RegistrationValues, validateRegistration } from '../validation/registration'
import { RoleToggle } from './RoleToggle'

/** The billing mandate a producer accepts by registering (PRODUCT §13). */
export const MANDATE_CLAUSE =
  'En créant un compte producteur, vous confiez à Primeur un mandat de facturation : les factures de vos livraisons sont émises en votre nom et pour votre compte.'

/** Registration form with the role toggle (PRODUCT §2, §5, §6). */
export function RegisterForm({ distributor = true }: { distributor?: boolean }) {
  const [, navigate] = useLocation()
  const form = useFormState<RegistrationValues, RegistrationField>(
    { email: '', email2: '', password: '', password2: '', name: '', distributor },
    validateRegistration,
  )
  const submission = useSubmit()
  const { values } = form

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        await register({
          email: values.email.trim(),
          email2: values.email2.trim(),
          password: values.password,
          password2: values.password2,
          name: values.name.trim(),
          distributor: values.distributor,
        })
        navigate(consumeOrigin())
      } catch (err) {
        if (err instanceof ApiError && err.errors.length > 0) {
          form.setServerErrors(err.fieldErrors())
          return err.detail && err.status !== 422 ? err.detail : null
        }
        if (err instanceof ApiError && err.detail && err.status >= 400 && err.status < 500) return err.detail
        return SESSION_MESSAGES.unknown
      }
    })
  }

  const field = (name: RegistrationField) => ({
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.setValue(name, e.currentTarget.value),
    onBlur: () => form.touch(name),
    error: form.errorOf(name),
  })

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="register-title">
      <Stack gap="sm">
        <Title order={2} id="register-title">
          Inscription
        </Title>
        <RoleToggle distributor={values.distributor} onChange={(d) => form.setValue('distributor', d)} />
        <TextInput label="Nom de votre entreprise" autoComplete="organization" {...field('name')} />
        <TextInput label="Adresse email" type="email" autoComplete="email" {...field('email')} />
        <TextInput label="Confirmation de l'adresse email" type="email" autoComplete="email" {...field('email2')} />
        <PasswordInput
          label="Mot de passe"
          description="8 caractères minimum, avec des lettres et des chiffres"
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput label="Confirmation du mot de passe" autoComplete="new-password" {...field('password2')} />
        {/* Before the button: what the producer accepts is read before "Créer mon compte", not under it. */}
        {!values.distributor ? (
          <Text size="sm" c="dimmed" data-testid="mandate-clause">
            {MANDATE_CLAUSE}
          </Text>
        ) : null}
        <SubmitFailure message={submission.failure} />
        <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
          {submission.label('Créer mon compte')}
        </Button>
        <Text size="sm">
          <Anchor component={Link} href="/landing/login">
            Vous avez déjà un compte ?
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
